import { describe, expect, it } from 'vitest'
import { LocalTTS } from '../dist/index.js'
import { SENTENCES, seconds, speak, transcribe, useSpeech, wordErrors } from './helpers.js'

describe('LocalTTS → LocalSTT round trip', () => {
  const speech = useSpeech()

  it('speaks 16 kHz PCM16 whose transcript is the text', async () => {
    const audio = await speak(speech.tts, 'What time is it?')
    // About a second of speech at 16 kHz (at 8 or 48 kHz the duration would be off by 2-3x).
    expect(seconds(audio)).toBeGreaterThan(0.6)
    expect(seconds(audio)).toBeLessThan(2)
    expect(await transcribe(speech.stt, audio)).toBe('what time is it')
  })

  it('recognizes audio split at odd byte boundaries', async () => {
    const audio = await speak(speech.tts, 'What time is it?')
    expect(await transcribe(speech.stt, audio, 1001)).toBe('what time is it')
  })

  it(`has a low word error rate on ${SENTENCES.length} flite-spoken sentences`, async () => {
    let errors = 0
    let words = 0
    const misses: string[] = []
    for (const sentence of SENTENCES) {
      const heard = await transcribe(speech.stt, await speak(speech.tts, sentence))
      errors += wordErrors(sentence, heard)
      words += sentence.split(' ').length
      if (heard !== sentence) misses.push(`  "${sentence}" → "${heard}"`)
    }
    const wer = errors / words
    console.log(
      `LocalSTT word error rate on flite slt: ${(wer * 100).toFixed(1)}% ` +
        `(${errors}/${words} words)\n${misses.join('\n')}`
    )
    expect(wer).toBeLessThan(0.2)
  }, 60_000)

  // Last: the decoder adapts to the voice it hears (live cepstral mean normalization), and this
  // 8 kHz telephone-like voice would shift what it expects for the tests after it.
  it(`resamples an 8 kHz voice (kal) to 16 kHz that is recognized as well (${SENTENCES.length} sentences)`, async () => {
    const kal = new LocalTTS({ voice: 'kal' })
    try {
      // At 8 kHz taken for 16 kHz the audio would last half as long and be heard as noise.
      expect(seconds(await speak(kal, 'What time is it?'))).toBeGreaterThan(0.6)
      let errors = 0
      let words = 0
      for (const sentence of SENTENCES) {
        errors += wordErrors(sentence, await transcribe(speech.stt, await speak(kal, sentence)))
        words += sentence.split(' ').length
      }
      // A narrowband voice on a wideband model: looser than slt's bound, far below noise's.
      expect(errors / words).toBeLessThan(0.3)
    } finally {
      kal.destroy()
    }
  }, 60_000)
})
