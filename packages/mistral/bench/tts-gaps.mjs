// MistralTTS speaking a three-sentence answer against the fake speech server on loopback, with a
// scripted time to first audio of 200 ms per request and each sentence's audio streamed at 3x real
// time. A client playing the audio in real time from its first chunk hears silence whenever a
// chunk arrives after the audio before it has finished playing; this prints, over the rounds, the
// longest such silence of each answer and the time to first audio minus the scripted 200 ms,
// beside the raw SDK call for the first sentence.
// Run after `pnpm build`: `pnpm --filter @openmic/mistral bench:tts` (ROUNDS=... to change).
import {
  benchTtsGaps,
  createFakeMistralSpeech,
  float32Sine,
  speechResponse,
} from '@openmic/testing'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { MistralTTS } from '../dist/index.js'

const ROUNDS = Number(process.env.ROUNDS ?? 30)
const TTFB_MS = 200
const SENTENCE_SECONDS = 1.2
const CHUNKS = 12
const CHUNK_DELAY_MS = (SENTENCE_SECONDS * 1000) / CHUNKS / 3
const TEXT = ['The weather is sunny today. ', 'It will be warm this afternoon. ', 'Enjoy your day!']

const fake = await createFakeMistralSpeech({
  fallback: speechResponse(float32Sine(24_000 * SENTENCE_SECONDS, 220), {
    firstEventDelayMs: TTFB_MS,
    chunks: CHUNKS,
    chunkDelayMs: CHUNK_DELAY_MS,
  }),
})
const tts = new MistralTTS({ apiKey: 'bench', serverURL: fake.serverURL })

/** The raw SDK's time to its first audio event for one sentence, minus the scripted TTFB. */
async function rawFirstAudio() {
  const start = performance.now()
  const events = await tts.mistral.audio.speech.complete(
    { input: TEXT[0], voiceId: 'en_paul_neutral', responseFormat: 'pcm', stream: true },
    { retries: { strategy: 'none' } }
  )
  let first = 0
  for await (const event of events) if (first === 0) first = performance.now() - start - TTFB_MS
  return first
}

const bench = {
  name: 'MistralTTS',
  rawName: 'raw SDK call',
  rounds: ROUNDS,
  ttfbMs: TTFB_MS,
  answer: 'three sentences',
  tts,
  text: () => Readable.from(TEXT),
  raw: rawFirstAudio,
}
console.log(await benchTtsGaps(bench))
tts.destroy()
await fake.close()
