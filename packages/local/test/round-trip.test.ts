import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalSTT, LocalTTS } from '../dist/index.js'
import { SENTENCES, seconds, speak, transcribe, wordErrors } from './helpers.js'

describe('LocalTTS → LocalSTT round trip', () => {
  let stt: LocalSTT
  let tts: LocalTTS

  beforeAll(async () => {
    stt = new LocalSTT()
    tts = new LocalTTS()
    await Promise.all([stt.ready(), tts.ready()])
  })
  afterAll(() => {
    stt.destroy()
    tts.destroy()
  })

  it('speaks 16 kHz PCM16 whose transcript is the text', async () => {
    const audio = await speak(tts, 'What time is it?')
    // About a second of speech at 16 kHz (at 8 or 48 kHz the duration would be off by 2-3x).
    expect(seconds(audio)).toBeGreaterThan(0.6)
    expect(seconds(audio)).toBeLessThan(2)
    expect(await transcribe(stt, audio)).toBe('what time is it')
  })

  it('recognizes audio split at odd byte boundaries', async () => {
    const audio = await speak(tts, 'What time is it?')
    expect(await transcribe(stt, audio, 1001)).toBe('what time is it')
  })

  it(`has a low word error rate on ${SENTENCES.length} flite-spoken sentences`, async () => {
    let errors = 0
    let words = 0
    const misses: string[] = []
    for (const sentence of SENTENCES) {
      const heard = await transcribe(stt, await speak(tts, sentence))
      errors += wordErrors(sentence, heard)
      words += sentence.split(' ').length
      if (heard !== sentence) misses.push(`  "${sentence}" → "${heard}"`)
    }
    const wer = errors / words
    console.log(
      `LocalSTT word error rate on flite slt: ${(wer * 100).toFixed(1)}% ` +
        `(${errors}/${words} words)\n${misses.join('\n')}`
    )
    expect(wer).toBeLessThan(0.15)
  }, 60_000)

  // Last: the decoder adapts to the voice it hears (live cepstral mean normalization), and this
  // 8 kHz telephone-like voice would shift what it expects for the tests after it.
  it('resamples an 8 kHz voice (kal) to 16 kHz', async () => {
    const kal = new LocalTTS({ voice: 'kal' })
    try {
      const audio = await speak(kal, 'Goodbye.')
      expect(await transcribe(stt, audio)).toBe('goodbye')
    } finally {
      kal.destroy()
    }
  })
})
