import { setImmediate as nextLoop } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { takeAbortController } from './spare-abort-controllers.js'

describe('takeAbortController', () => {
  it('hands out distinct, never-aborted controllers, from spares or new when none is left', async () => {
    await nextLoop() // spares made
    const taken = Array.from({ length: 5 }, () => takeAbortController())
    expect(new Set(taken).size).toBe(5)
    expect(taken.every((controller) => !controller.signal.aborted)).toBe(true)
    taken[0]!.abort()
    await nextLoop()
    const next = [takeAbortController(), takeAbortController()]
    expect(next.some((controller) => taken.includes(controller))).toBe(false)
    expect(next.every((controller) => !controller.signal.aborted)).toBe(true)
  })
})
