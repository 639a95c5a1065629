import { setImmediate as nextLoop } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { abortControllers, MadeAhead } from './made-ahead.js'

describe('MadeAhead', () => {
  it('hands out each object once, made ahead after a take or made on the spot when none is left', async () => {
    let made = 0
    const objects = new MadeAhead(() => ({ id: ++made }), 2)
    const first = objects.take() // none ready: made now
    expect(first.id).toBe(1)
    await nextLoop() // two spares made
    expect(made).toBe(3)
    const taken = [objects.take(), objects.take(), objects.take()]
    expect(new Set([first, ...taken]).size).toBe(4)
    expect(made).toBe(4) // the third take found no spare
    await nextLoop()
    expect(made).toBe(6)
  })

  it('gives never-aborted AbortControllers', async () => {
    await nextLoop()
    const controllers = [abortControllers.take(), abortControllers.take(), abortControllers.take()]
    expect(controllers.every((controller) => !controller.signal.aborted)).toBe(true)
    controllers[0]!.abort()
    await nextLoop()
    expect(abortControllers.take().signal.aborted).toBe(false)
  })
})
