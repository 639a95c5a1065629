import { describe, expect, it } from 'vitest'
import { webSocketURL } from './ws-url.js'

describe('webSocketURL', () => {
  it('derives wss/ws from the base URL, keeps a path prefix and skips undefined parameters', () => {
    expect(webSocketURL('https://api.elevenlabs.io', '/v1/x', { a: 'b', c: undefined })).toBe(
      'wss://api.elevenlabs.io/v1/x?a=b'
    )
    expect(webSocketURL('http://127.0.0.1:9000/proxy/', '/v1/x', { n: 180, t: true })).toBe(
      'ws://127.0.0.1:9000/proxy/v1/x?n=180&t=true'
    )
  })
})
