import { describe, expect, it } from 'vitest'
import type { MediaStreamCommand } from './media-stream-messages.js'
import { PhonePlayback } from './PhonePlayback.js'

/** A playback on a fake line: what it sent, and a clock the test moves. */
function line() {
  const sent: MediaStreamCommand[] = []
  const clock = { ms: 0 }
  const playback = new PhonePlayback({
    aheadMs: 10_000,
    markEveryMs: 100,
    send: (command) => sent.push(command),
    now: () => clock.ms,
  })
  const marks = () => sent.flatMap((command) => (command.event === 'mark' ? [command.name] : []))
  /** The carrier plays everything sent: every mark comes back, and those the echoes let out. */
  const playAll = (from = 0) => {
    for (let echoed = from; echoed < marks().length; echoed++) playback.mark(marks()[echoed]!)
  }
  return { playback, sent, clock, marks, playAll }
}

/** Records whether a promise settled by the time the microtasks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  await new Promise((resolve) => setImmediate(resolve))
  return done
}

describe('PhonePlayback.whenPlayedOut', () => {
  it('resolves at once on a quiet line', async () => {
    expect(await settled(line().playback.whenPlayedOut())).toBe(true)
  })

  it('resolves when the last mark comes back, not before', async () => {
    const { playback, marks, playAll } = line()
    playback.audio(Buffer.alloc(32 * 300)) // 300 ms: three marks
    const out = playback.whenPlayedOut()
    playback.mark(marks()[0]!)
    expect(await settled(out)).toBe(false)
    playAll(1)
    expect(await settled(out)).toBe(true)
  })

  it('resolves when the audio is dropped (the goodbye was interrupted)', async () => {
    const { playback } = line()
    playback.audio(Buffer.alloc(32 * 300))
    const out = playback.whenPlayedOut()
    playback.drop()
    expect(await settled(out)).toBe(true)
  })

  it('waits through a pause: resolves once the resumed audio has played', async () => {
    const { playback, marks, sent, playAll } = line()
    playback.audio(Buffer.alloc(32 * 200))
    const out = playback.whenPlayedOut()
    playback.pause()
    expect(sent.at(-1)).toEqual({ event: 'clear' })
    expect(await settled(out)).toBe(false)
    const before = marks().length
    playback.resume()
    expect(marks().length).toBeGreaterThan(before)
    playAll(before)
    expect(await settled(out)).toBe(true)
  })
})
