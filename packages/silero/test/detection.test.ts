import { beforeAll, describe, expect, it } from 'vitest'
import { SileroVAD } from '../src/index.js'
import { durationMs, PER_MS, silence, speak, voiceSpan, whiteNoise } from './audio.js'
import { feed, pairs, record } from './events.js'

const SENTENCES = [
  'Hello, I would like to book a table for two tonight.',
  'What time is it?',
  'Could you call me back tomorrow morning please.',
]

/**
 * Sentences one after the other with `gapMs` of silence between their voices (flite's own quiet
 * start and end are cut off, so that the gap is the real pause); where each one's voice is.
 */
function layout(voices: Buffer[], gapMs: number, leadMs = 1000, tailMs = 1500) {
  const parts: Buffer[] = [silence(leadMs)]
  const spans: Array<{ startMs: number; endMs: number }> = []
  let offsetMs = leadMs
  voices.forEach((voice, i) => {
    const { startMs, endMs } = voiceSpan(voice)
    const trimmed = voice.subarray(startMs * PER_MS * 2, endMs * PER_MS * 2)
    spans.push({ startMs: offsetMs, endMs: offsetMs + durationMs(trimmed) })
    parts.push(trimmed)
    offsetMs += durationMs(trimmed)
    const after = i === voices.length - 1 ? tailMs : gapMs
    parts.push(silence(after))
    offsetMs += after
  })
  return { audio: Buffer.concat(parts), spans }
}

async function detect(audio: Buffer, options = {}) {
  const vad = new SileroVAD(options)
  const events = record(vad)
  await feed(vad, audio)
  vad.destroy()
  return events
}

describe('SileroVAD on flite speech', () => {
  let slt: Buffer[]
  let kal: Buffer[]
  beforeAll(async () => {
    slt = await Promise.all(SENTENCES.map((text) => speak(text, 'slt')))
    kal = await Promise.all(SENTENCES.map((text) => speak(text, 'kal')))
  })

  it.each([
    ['16 kHz (slt)', () => slt],
    ['8 kHz phone audio resampled to 16 kHz (kal)', () => kal],
  ])('%s: one SpeechStart/SpeechEnd pair per sentence, where the voice is', async (_, voices) => {
    const { audio, spans } = layout(voices(), 1500)
    const found = pairs(await detect(audio))
    expect(found).toHaveLength(SENTENCES.length)
    found.forEach(({ startMs, endMs }, i) => {
      expect(Math.abs(startMs - spans[i]!.startMs)).toBeLessThanOrEqual(150)
      // The end is where the silence began: after the voice's last sound, within a window or so.
      expect(endMs).toBeGreaterThanOrEqual(spans[i]!.endMs - 150)
      expect(endMs).toBeLessThanOrEqual(spans[i]!.endMs + 250)
    })
  })

  it('a pause shorter than silenceMs stays inside one speech', async () => {
    const { audio, spans } = layout(slt.slice(0, 2), 300)
    const found = pairs(await detect(audio, { silenceMs: 600 }))
    expect(found).toHaveLength(1)
    expect(found[0]!.endMs).toBeGreaterThanOrEqual(spans[1]!.endMs - 150)
  })

  it('SpeechEnd fires once silenceMs of silence was heard, not before', async () => {
    const { audio } = layout(slt.slice(1, 2), 0, 500, 2000)
    for (const silenceMs of [300, 600, 1000]) {
      const vad = new SileroVAD({ silenceMs })
      const events = record(vad)
      // One window at a time, waiting for each: the audio position when SpeechEnd comes is known.
      let firedAtMs: number | undefined
      for (let offset = 0; offset < audio.length && firedAtMs === undefined; offset += 1024) {
        await feed(vad, audio.subarray(offset, offset + 1024))
        if (events.some((event) => event.type === 'SpeechEnd'))
          firedAtMs = (offset + 1024) / 2 / PER_MS
      }
      vad.destroy()
      const [{ endMs }] = pairs(events)
      expect(firedAtMs! - endMs).toBeGreaterThanOrEqual(silenceMs)
      expect(firedAtMs! - endMs).toBeLessThan(silenceMs + 32)
    }
  })

  it('no SpeechEnd while the silence after the speech is shorter than silenceMs', async () => {
    const { audio } = layout(slt.slice(1, 2), 0, 500, 400)
    const events = await detect(audio, { silenceMs: 600 })
    expect(events.map((event) => event.type)).toEqual(['SpeechStart'])
  })

  it('silence and white noise at moderate levels start nothing', async () => {
    expect(await detect(silence(5000))).toEqual([])
    for (const dbfs of [-40, -30, -20]) {
      expect(await detect(whiteNoise(5000, dbfs, dbfs))).toEqual([])
    }
  })

  it('speech in moderate noise is still detected', async () => {
    const { audio, spans } = layout(slt.slice(0, 1), 1500)
    const noisy = Buffer.from(audio)
    const noise = whiteNoise(durationMs(audio), -35)
    for (let i = 0; i < noisy.length / 2; i++) {
      const sum = noisy.readInt16LE(i * 2) + noise.readInt16LE(i * 2)
      noisy.writeInt16LE(Math.max(-32768, Math.min(32767, sum)), i * 2)
    }
    const found = pairs(await detect(noisy))
    expect(found).toHaveLength(1)
    expect(Math.abs(found[0]!.startMs - spans[0]!.startMs)).toBeLessThanOrEqual(150)
  })

  it('a sound shorter than minSpeechMs starts nothing (and does with minSpeechMs 0)', async () => {
    // The first 150 ms of a spoken word: the model takes it for speech, but it is too short.
    const word = await speak('Hey.')
    const { startMs } = voiceSpan(word)
    const start = Math.round(startMs * PER_MS) * 2
    const short = word.subarray(start, start + 150 * PER_MS * 2)
    const audio = Buffer.concat([silence(1000), short, silence(1500)])
    expect(pairs(await detect(audio, { minSpeechMs: 0 }))).toHaveLength(1)
    expect(await detect(audio, { minSpeechMs: 250 })).toEqual([])
  })
})
