import { describe, expect, it } from 'vitest'
import type { MediaStreamCommand } from './media-stream-messages.js'
import { PhonePlayback } from './PhonePlayback.js'

/** A playback on a fake line: what it sent, and a clock the test moves. */
function line(aheadMs = 10_000) {
  const sent: MediaStreamCommand[] = []
  const clock = { ms: 0 }
  const playback = new PhonePlayback({
    aheadMs,
    markEveryMs: 100,
    send: (command) => sent.push(command),
    now: () => clock.ms,
  })
  const playedOut: number[] = []
  playback.on('PlayedOut', (ms) => playedOut.push(ms))
  const marks = () => sent.flatMap((command) => (command.event === 'mark' ? [command.name] : []))
  /** The carrier plays everything sent: every mark comes back, and those the echoes let out. */
  const playAll = (from = 0) => {
    for (let echoed = from; echoed < marks().length; echoed++) playback.mark(marks()[echoed]!)
  }
  /** The media frames sent (from the `from`th message on), as their μ-law bytes. */
  const frames = (from = 0) =>
    sent
      .slice(from)
      .flatMap((command) =>
        command.event === 'media' ? [Buffer.from(command.payload, 'base64')] : []
      )
  return { playback, sent, clock, marks, playAll, playedOut, frames }
}

/** PCM16 16 kHz: `ms` of a tone, loud enough that no μ-law byte of it is silence (0xFF). */
function tone(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    const wave = Math.sin((2 * Math.PI * 400 * i) / 16000)
    pcm.writeInt16LE(Math.round((wave >= 0 ? 1 : -1) * (4000 + 8000 * Math.abs(wave))), i * 2)
  }
  return pcm
}

/** μ-law bytes of the tone in a frame: its padding (0xFF) left out. */
function audioBytes(frame: Buffer): number {
  return frame.filter((byte) => byte !== 0xff).length
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

describe('PhonePlayback: the whole answer is sent and played out, whatever aheadMs', () => {
  it.each([20, 40, 60, 80, 100, 300])(
    'aheadMs %i: a second of audio goes out in 50 whole frames, and PlayedOut says all of it',
    async (aheadMs) => {
      const { playback, frames, playAll, playedOut, marks } = line(aheadMs)
      playback.audio(tone(1000))
      const out = playback.whenPlayedOut()
      // Every echo lets more out, until everything was sent and played
      playAll()
      expect(frames()).toHaveLength(50)
      expect(frames().every((frame) => frame.length === 160)).toBe(true)
      // A mark every 100 ms of audio, or every `aheadMs` when that is less, and one after the
      // last frame: no more
      expect(marks().length).toBeLessThanOrEqual(Math.ceil(1000 / Math.min(100, aheadMs)) + 1)
      expect(playedOut).toEqual([1000])
      expect(playback.isPlaying).toBe(false)
      expect(await settled(out)).toBe(true)
    }
  )

  it.each([
    [40, 170, 30],
    [60, 250, 30],
    [80, 330, 30],
    [300, 170, 30],
    [300, 1010, 30],
    // In one piece: 3 whole frames after the first mark, then the short end (once lost)
    [300, 170, 170],
    [40, 170, 170],
  ])(
    'aheadMs %i: an answer of %i ms in pieces of %i ms, ending in less than a frame, is sent to its end and played out',
    async (aheadMs, ms, pieceMs) => {
      const { playback, frames, playAll, playedOut } = line(aheadMs)
      // Streamed as a TTS does, in pieces that do not fall on frames
      const pcm = tone(ms)
      for (let offset = 0; offset < pcm.length; offset += pieceMs * 32) {
        playback.audio(pcm.subarray(offset, offset + pieceMs * 32))
      }
      const out = playback.whenPlayedOut()
      playAll()
      const sent = frames()
      expect(sent).toHaveLength(Math.ceil(ms / 20))
      // Whole frames on the wire; the last one padded with silence after the answer's end
      expect(sent.every((frame) => frame.length === 160)).toBe(true)
      expect(sent.reduce((bytes, frame) => bytes + audioBytes(frame), 0)).toBe(ms * 8)
      expect(playedOut).toEqual([ms])
      expect(await settled(out)).toBe(true)
    }
  )

  it('refuses an aheadMs or markEveryMs that is not a number of ms of at least one frame', () => {
    const send = () => {}
    for (const aheadMs of [Number.NaN, -100, 0, 10, Number.POSITIVE_INFINITY, '300']) {
      expect(
        () => new PhonePlayback({ aheadMs: aheadMs as number, markEveryMs: 100, send })
      ).toThrow(
        new RangeError(
          `aheadMs must be a number of ms of at least 20 (one frame), got ${String(aheadMs)}`
        )
      )
    }
    expect(() => new PhonePlayback({ aheadMs: 300, markEveryMs: 0, send })).toThrow(/markEveryMs/)
    expect(() => new PhonePlayback({ aheadMs: 20, markEveryMs: 20, send })).not.toThrow()
  })
})

describe("PhonePlayback: positions in the call's scale", () => {
  it('audio dropped unsent still counts: the next answer is played out at its own end', () => {
    const { playback, marks, playAll, playedOut, clock } = line(300)
    playback.audio(tone(1000))
    clock.ms = 10
    playback.mark(marks()[0]!) // the first 100 ms were played
    clock.ms = 40
    expect(playback.drop()).toBe(130)
    const before = marks().length
    playback.audio(tone(200))
    playAll(before)
    expect(playedOut).toEqual([1200])
  })

  it('a pause stops where playback was, and the rest is sent from there', () => {
    const { playback, marks, playAll, playedOut, clock, sent, frames } = line(300)
    playback.audio(tone(500))
    clock.ms = 10
    playback.mark(marks()[0]!) // the first 100 ms were played
    clock.ms = 60 // 50 ms more: estimated, within the next mark
    expect(playback.position()).toBe(150)
    expect(playback.pause()).toBe(150)
    const resumedFrom = sent.length
    playback.resume()
    playAll(marks().length - 1)
    const resent = frames(resumedFrom)
    expect(resent.reduce((bytes, frame) => bytes + audioBytes(frame), 0)).toBe(350 * 8)
    expect(playedOut).toEqual([500])
  })

  it('between two marks, the position runs on the clock but never past the next mark', () => {
    const { playback, marks, clock } = line(300)
    playback.audio(tone(500))
    clock.ms = 10
    playback.mark(marks()[0]!)
    clock.ms = 500 // the next echo is late: the position stays at the next mark
    expect(playback.position()).toBe(200)
  })
})
