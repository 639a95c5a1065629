import { describeSTTConformance, describeTTSConformance } from '@openmic/testing/conformance'
import { beforeAll } from 'vitest'
import { LocalSTT, LocalTTS } from '../dist/index.js'
import { speak, wordErrors } from './helpers.js'

/** Sentences pocketsphinx recognizes word for word when flite says them, most of the time. */
const TRANSCRIPTS = ['what time is it', 'thank you very much', 'where is the nearest train station']
const audioOf = new Map<string, Buffer>()

beforeAll(async () => {
  const tts = new LocalTTS()
  for (const text of TRANSCRIPTS) audioOf.set(text, await speak(tts, text))
  tts.destroy()
})

// A local engine cannot be made to fail on demand: the failure tests are skipped.
describeSTTConformance('LocalSTT', {
  failures: false,
  transcripts: TRANSCRIPTS,
  // A recognizer: one word in five may come out wrong (its decoder adapts from one utterance to
  // the next, so a sentence is not always heard the same).
  matchTranscript: (heard, expected) =>
    wordErrors(expected, heard) <= Math.ceil(expected.split(' ').length / 5),
  make: async () => {
    const stt = new LocalSTT()
    await stt.ready()
    return {
      stt,
      next: (utterance) =>
        utterance.kind === 'speech' ? audioOf.get(utterance.transcript) : undefined,
    }
  },
})

describeTTSConformance('LocalTTS', {
  failures: false,
  make: async () => {
    const tts = new LocalTTS()
    await tts.ready()
    return { tts }
  },
})
