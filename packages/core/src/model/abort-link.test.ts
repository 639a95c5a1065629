import { describe, expect, it } from 'vitest'
import { followAbort, LeadingAbortController, unfollowAbort } from './abort-link.js'

describe('followAbort', () => {
  for (const [name, make] of [
    ['a LeadingAbortController (direct)', () => new LeadingAbortController()],
    ['any other AbortController (listener)', () => new AbortController()],
  ] as const) {
    describe(name, () => {
      it('runs the follower once, when the signal aborts, after its abort listeners', () => {
        const controller = make()
        const calls: string[] = []
        controller.signal.addEventListener('abort', () => calls.push('listener'))
        followAbort(controller.signal, () => calls.push(`follower: ${controller.signal.reason}`))
        expect(calls).toEqual([])
        controller.abort('stop')
        controller.abort('again')
        expect(calls).toEqual(['listener', 'follower: stop'])
      })

      it('stops after unfollowAbort, leaving the other followers', () => {
        const controller = make()
        const calls: string[] = []
        const first = () => calls.push('first')
        followAbort(controller.signal, first)
        followAbort(controller.signal, () => calls.push('second'))
        unfollowAbort(controller.signal, first)
        unfollowAbort(controller.signal, first) // twice: harmless
        controller.abort()
        expect(calls).toEqual(['second'])
      })

      it('never runs a follower added after the abort', () => {
        const controller = make()
        controller.abort()
        let called = false
        followAbort(controller.signal, () => (called = true))
        controller.abort()
        expect(called).toBe(false)
      })
    })
  }

  it('keeps the signal a real AbortSignal: aborted, reason, abort event', () => {
    const controller = new LeadingAbortController()
    const events: unknown[] = []
    controller.signal.onabort = () => events.push(controller.signal.reason)
    controller.abort(new Error('gone'))
    expect(controller.signal.aborted).toBe(true)
    expect(controller.signal).toBeInstanceOf(AbortSignal)
    expect(events).toEqual([new Error('gone')])
  })
})
