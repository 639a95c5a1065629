// MistralTTS speaking a three-sentence answer against the fake speech server on loopback, with a
// scripted time to first audio of 200 ms per request and each sentence's audio streamed at 3x real
// time. A client playing the audio in real time from its first chunk hears silence whenever a
// chunk arrives after the audio before it has finished playing; this prints, over the rounds, the
// longest such silence of each answer and the time to first audio minus the scripted 200 ms.
// Run after `pnpm build`: `pnpm --filter @openmic/mistral bench:tts` (ROUNDS=... to change).
import { createFakeMistralSpeech, float32Sine, speechResponse } from '@openmic/testing'
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

/** One answer: its longest silence at the client and the time to its first audio, in ms. */
function speakOnce() {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    let firstAt = 0
    let playhead = 0 // when the audio received so far ends playing
    let silence = 0
    const onAudio = (chunk) => {
      const now = performance.now()
      if (firstAt === 0) {
        firstAt = now
        playhead = now
      }
      silence = Math.max(silence, now - playhead)
      playhead = Math.max(playhead, now) + (chunk.length / 2 / 16_000) * 1000
    }
    const cleanup = () => {
      tts.off('Audio', onAudio)
      tts.off('AudioEnd', onEnd)
      tts.off('Failed', onFailed)
    }
    const onEnd = () => {
      cleanup()
      resolve({ silence, firstAudio: firstAt - start - TTFB_MS })
    }
    const onFailed = (error) => {
      cleanup()
      reject(error)
    }
    tts.on('Audio', onAudio)
    tts.once('AudioEnd', onEnd)
    tts.once('Failed', onFailed)
    tts.speak(Readable.from(TEXT))
  })
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

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

await speakOnce() // warm-up
await rawFirstAudio()
const results = []
const raws = []
for (let i = 0; i < ROUNDS; i++) {
  results.push(await speakOnce())
  raws.push(await rawFirstAudio())
}
const silences = results.map((r) => r.silence)
const firsts = results.map((r) => r.firstAudio)
const ms = (value) => `${value.toFixed(2)} ms`
console.log(`MistralTTS, three sentences, ${ROUNDS} rounds (TTFB ${TTFB_MS} ms scripted)`)
console.log(
  `longest silence between audio chunks: p50 ${ms(percentile(silences, 50))}, p99 ${ms(percentile(silences, 99))}, max ${ms(Math.max(...silences))}`
)
console.log(
  `first audio minus the scripted TTFB:   p50 ${ms(percentile(firsts, 50))}, p99 ${ms(percentile(firsts, 99))}`
)
console.log(
  `  the same through the raw SDK call:   p50 ${ms(percentile(raws, 50))}, p99 ${ms(percentile(raws, 99))}`
)
tts.destroy()
await fake.close()
