import { setImmediate as nextLoop } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { abortControllers, MadeAhead } from './made-ahead.js'

describe('MadeAhead', () => {
  it('hands out each object once: a spare made by refillSoon(), or one made on the spot', async () => {
    let made = 0
    const objects = new MadeAhead(() => ({ id: ++made }), 2)
    const first = objects.take() // none ready: made now
    expect(first.id).toBe(1)
    await nextLoop()
    expect(made).toBe(1) // taking does not refill: that work would compete with the request
    objects.refillSoon()
    objects.refillSoon() // one refill pending at a time
    expect(made).toBe(1) // not on the caller's path
    await nextLoop()
    expect(made).toBe(3)
    const taken = [objects.take(), objects.take(), objects.take()]
    expect(new Set([first, ...taken]).size).toBe(4)
    expect(made).toBe(4) // the third take found no spare
    objects.refillSoon()
    await nextLoop()
    expect(made).toBe(6)
  })

  it('gives never-aborted AbortControllers', async () => {
    abortControllers.refillSoon()
    await nextLoop()
    const controllers = [abortControllers.take(), abortControllers.take(), abortControllers.take()]
    expect(controllers.every((controller) => !controller.signal.aborted)).toBe(true)
    controllers[0]!.abort()
    abortControllers.refillSoon()
    await nextLoop()
    expect(abortControllers.take().signal.aborted).toBe(false)
  })
})
