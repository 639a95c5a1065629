// CartesiaTTS speaking a three-sentence answer, streamed word by word 10 ms apart, against the fake
// Cartesia TTS on loopback, with a scripted time to first audio of 200 ms and audio streamed at
// about 3x real time. A client playing the audio in real time from its first chunk hears silence
// whenever a chunk arrives after the audio before it has finished playing; this prints, over the
// rounds, the longest such silence of each answer and the time to first audio minus the scripted
// 200 ms, beside a bare `ws` client sending the same first request on a warm socket.
// Run after `pnpm build`: `pnpm --filter @openmic/cartesia bench:tts` (ROUNDS=... to change).
import { createFakeCartesiaTTS } from '@openmic/testing'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import { CartesiaTTS } from '../dist/index.js'

const ROUNDS = Number(process.env.ROUNDS ?? 30)
const TTFB_MS = 200
const TEXT = 'The weather is sunny today. It will be warm this afternoon. Enjoy your day!'

const fake = await createFakeCartesiaTTS({
  firstAudioDelayMs: TTFB_MS,
  msPerWord: 300,
  chunkMs: 40,
  chunkDelayMs: 13,
})
const tts = new CartesiaTTS({ apiKey: 'bench', voiceId: 'v', baseURL: fake.baseURL })

/** The answer's words, one piece every 10 ms, as an LLM streams them. */
function words() {
  return Readable.from(
    (async function* () {
      for (const word of TEXT.match(/\S+\s*/g)) {
        yield word
        await sleep(10)
      }
    })()
  )
}

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
    tts.speak(words())
  })
}

const raw = new WebSocket(`${fake.baseURL.replace('http', 'ws')}/tts/websocket`, {
  headers: { Authorization: 'Bearer bench', 'Cartesia-Version': '2026-08-14' },
})
await new Promise((resolve) => raw.once('open', resolve))

/**
 * A bare client's time to the first chunk of one context, minus the TTFB: its first word, then the
 * rest of the text, as CartesiaTTS sends them (the fake's work per request is then the same).
 */
function rawFirstAudio() {
  return new Promise((resolve) => {
    const contextId = randomUUID()
    const start = performance.now()
    let first = 0
    const onMessage = (data) => {
      const event = JSON.parse(String(data))
      if (event.context_id !== contextId) return
      if (event.type === 'chunk' && first === 0) first = performance.now() - start - TTFB_MS
      if (event.type === 'done') {
        raw.off('message', onMessage)
        resolve(first)
      }
    }
    raw.on('message', onMessage)
    const [firstWord, ...rest] = TEXT.match(/\S+\s*/g)
    for (const [transcript, more] of [
      [firstWord, true],
      [rest.join(''), false],
    ])
      raw.send(
        JSON.stringify({
          model_id: 'sonic-3',
          voice: { mode: 'id', id: 'v' },
          output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
          transcript,
          context_id: contextId,
          continue: more,
        })
      )
  })
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
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
console.log(`CartesiaTTS, three sentences, ${ROUNDS} rounds (TTFB ${TTFB_MS} ms scripted)`)
console.log(
  `longest silence between audio chunks: p50 ${ms(percentile(silences, 50))}, p99 ${ms(percentile(silences, 99))}, max ${ms(Math.max(...silences))}`
)
console.log(
  `first audio minus the scripted TTFB:   p50 ${ms(percentile(firsts, 50))}, p99 ${ms(percentile(firsts, 99))}`
)
console.log(
  `  the same through a bare ws client:   p50 ${ms(percentile(raws, 50))}, p99 ${ms(percentile(raws, 99))}`
)
tts.destroy()
raw.close()
await fake.close()
