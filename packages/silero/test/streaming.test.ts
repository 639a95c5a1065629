import { beforeAll, describe, expect, it, vi } from 'vitest'
import { SileroVAD } from '../src/index.js'
import { silence, speak } from './audio.js'
import { feed, pairs, record, type Recorded } from './events.js'

describe('SileroVAD streaming', () => {
  /** Two sentences with a long pause: two pairs. */
  let audio: Buffer
  let reference: Recorded[]
  beforeAll(async () => {
    const [first, second] = await Promise.all([
      speak('Hello, I would like to book a table.'),
      speak('For two people, at eight.'),
    ])
    audio = Buffer.concat([silence(700), first!, silence(1500), second!, silence(1500)])
    const vad = new SileroVAD()
    reference = record(vad)
    await feed(vad, audio)
    vad.destroy()
    expect(pairs(reference)).toHaveLength(2)
  })

  it.each([1, 3, 641, 999, 4097])(
    'gives the same events fed in pieces of %i bytes',
    async (bytes) => {
      const vad = new SileroVAD()
      const events = record(vad)
      await feed(vad, audio, bytes)
      vad.destroy()
      expect(events).toEqual(reference)
    }
  )

  it('gives the same events when each piece waits for the previous one to be analysed', async () => {
    const vad = new SileroVAD()
    const events = record(vad)
    for (let offset = 0; offset < audio.length; offset += 3333) {
      await feed(vad, audio.subarray(offset, offset + 3333))
    }
    vad.destroy()
    expect(events).toEqual(reference)
  })

  it('two instances fed interleaved keep their own state', async () => {
    // B hears the same audio 1.28 s (40 windows) later, in odd-sized pieces: never in step with A.
    const delayed = Buffer.concat([silence(1280), audio])
    const a = new SileroVAD()
    const b = new SileroVAD()
    const eventsA = record(a)
    const eventsB = record(b)
    for (let piece = 0; piece * 641 < delayed.length; piece++) {
      a.process(audio.subarray(piece * 640, (piece + 1) * 640))
      b.process(delayed.subarray(piece * 641, (piece + 1) * 641))
    }
    await Promise.all([a.idle(), b.idle()])
    a.destroy()
    b.destroy()
    expect(eventsA).toEqual(reference)
    expect(eventsB).toEqual(
      reference.map((event) => ('atMs' in event ? { ...event, atMs: event.atMs + 1280 } : event))
    )
  })

  it('reset() forgets the speech in progress: no SpeechEnd for it, the position goes on', async () => {
    const vad = new SileroVAD()
    const events = record(vad)
    const firstStart = reference[0] as { atMs: number }
    // Into the first sentence, past its SpeechStart.
    const cut = (firstStart.atMs + 800) * 32
    await feed(vad, audio.subarray(0, cut))
    expect(events).toEqual(reference.slice(0, 1))
    vad.reset()
    await feed(vad, audio.subarray(cut))
    vad.destroy()
    // The rest of the first sentence may start a speech of its own; the second is as before.
    const after = events.slice(1)
    expect(after.slice(-2)).toEqual(reference.slice(2))
    expect(after.every((event) => 'atMs' in event && event.atMs >= cut / 32)).toBe(true)
  })

  it('destroy() while the model runs: the result is dropped, nothing is emitted after', async () => {
    const vad = new SileroVAD()
    const emit = vi.spyOn(vad, 'emit')
    let destroyed = false
    vad.once('SpeechStart', () => {
      // After this listener the VAD goes on with the next window: destroy while it runs.
      queueMicrotask(() => {
        vad.destroy()
        destroyed = true
        emit.mockClear()
      })
    })
    vad.process(audio)
    await vad.idle()
    expect(destroyed).toBe(true)
    vad.process(audio)
    await vad.idle()
    expect(emit).not.toHaveBeenCalled()
  })

  it('destroy() before the model answered: nothing is ever emitted', async () => {
    const vad = new SileroVAD()
    const emit = vi.spyOn(vad, 'emit')
    vad.process(audio)
    vad.destroy()
    await vad.idle()
    // The model loaded meanwhile, and the windows it would have run are gone.
    await SileroVAD.warmUp()
    await new Promise((resolve) => setImmediate(resolve))
    expect(emit).not.toHaveBeenCalled()
  })
})
