import { describe, expect, it } from 'vitest'
import { PhonePlayback, type PhonePlaybackOptions } from '../src/playback/PhonePlayback.js'

type Sent = Parameters<PhonePlaybackOptions['send']>[0]

describe('PhonePlayback: the last piece of an answer', () => {
  // Known bug, seen as a call never hung up in the demo's phone test (2 runs in 9): an answer
  // whose μ-law ends in less than a frame, with 3 or 4 whole frames sent after its last mark.
  // The short piece waits while more than 2 frames are queued ahead, but it is only looked at
  // again when a mark comes back, and the frames sent after the last mark carry none: it is never
  // sent, `isPlaying` stays true, `playedOut` never comes, and `EndCall` waits forever. Remove
  // `.fails` once fixed.
  it.fails('is sent once the audio before it was played, and the answer is played out', () => {
    let now = 0
    const sent: Sent[] = []
    const playedOut: number[] = []
    const playback = new PhonePlayback({
      aheadMs: 300,
      markEveryMs: 100,
      send: (message) => sent.push(message),
      playedOut: (ms) => playedOut.push(ms),
      now: () => now,
    })
    // 8 whole frames (160 ms) and 10 ms more, PCM16 16 kHz: the resampler lets out a little less
    // on its first write, so the μ-law ends in a piece shorter than a frame
    playback.audio(Buffer.alloc(170 * 32, 1))
    const marks = () => sent.filter((m) => m.event === 'mark').map((m) => m.mark.name)
    expect(marks()).toEqual(['m1']) // after the 5th frame; frames 6 to 8 carry none
    now = 100
    playback.mark('m1') // the first 100 ms were played
    now = 160
    // Everything was sent, with a mark after it, and once that mark is back it was all played
    const last = marks().at(-1)!
    expect(last).not.toBe('m1')
    playback.mark(last)
    expect(playback.isPlaying).toBe(false)
    expect(playedOut).toHaveLength(1)
  })
})
