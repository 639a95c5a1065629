import { describe, expect, it } from 'vitest'
import { listenDroppingConnections } from '../src/index.js'

describe('listenDroppingConnections', () => {
  it('fails every request before any response and counts each connection', async () => {
    const dropper = await listenDroppingConnections()
    try {
      for (let i = 0; i < 2; i++) {
        await expect(fetch(`${dropper.url}/v1/responses`, { method: 'POST' })).rejects.toThrow()
      }
      expect(dropper.connections).toBe(2)
    } finally {
      await dropper.close()
    }
  })
})
