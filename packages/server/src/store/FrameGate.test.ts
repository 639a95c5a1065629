import { describe, expect, it } from 'vitest'
import { FrameGate } from './FrameGate.js'

/** A record being stored, settled by the test. */
function pendingRecord() {
  let store!: () => void
  const stored = new Promise<void>((resolve) => (store = resolve))
  return { stored, store }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('FrameGate', () => {
  it('sends at once when no record is being stored', () => {
    const gate = new FrameGate()
    const sent: string[] = []
    gate.deliver(() => sent.push('Resume'))
    expect(sent).toEqual(['Resume'])
  })

  it('a frame waits for the records before it, not for those after it', async () => {
    const gate = new FrameGate()
    const sent: string[] = []
    const first = pendingRecord()
    const second = pendingRecord()
    gate.hold(first.stored)
    gate.deliver(() => sent.push('Message 1'))
    gate.hold(second.stored)
    gate.deliver(() => sent.push('Message 2'))

    first.store()
    await tick()
    expect(sent).toEqual(['Message 1'])
    second.store()
    await tick()
    expect(sent).toEqual(['Message 1', 'Message 2'])
    gate.deliver(() => sent.push('SkipAnswer'))
    expect(sent).toEqual(['Message 1', 'Message 2', 'SkipAnswer'])
  })

  it('keeps the order when a later record is stored first', async () => {
    const gate = new FrameGate()
    const sent: string[] = []
    const first = pendingRecord()
    const second = pendingRecord()
    gate.hold(first.stored)
    gate.deliver(() => sent.push('Message 1'))
    gate.hold(second.stored)
    gate.deliver(() => sent.push('Message 2'))

    second.store()
    await tick()
    expect(sent).toEqual([])
    first.store()
    await tick()
    expect(sent).toEqual(['Message 1', 'Message 2'])
  })
})
