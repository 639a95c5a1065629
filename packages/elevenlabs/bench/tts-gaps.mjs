// ElevenLabsTTS speaking a three-sentence answer streamed as a model would (a piece every 30 ms)
// against the fake multi-context server on loopback, with a scripted time to first audio of 200 ms
// per context and speech sent at 3x real time. A client playing the audio in real time from its
// first chunk hears silence whenever a chunk arrives after the audio before it has finished
// playing; this prints, over the rounds, the longest such silence of each answer and the time to
// first audio (from the end of the first sentence's text) minus the scripted 200 ms, beside a bare `ws` client sending the first sentence
// with a flush on an open connection (what the protocol itself costs).
// Run after `pnpm build`: `pnpm --filter @openmic/elevenlabs bench:tts` (ROUNDS=... to change).
import { createFakeElevenLabsTTS } from '@openmic/testing'
import { performance } from 'node:perf_hooks'
import { PassThrough } from 'node:stream'
import WebSocket from 'ws'
import { ElevenLabsTTS } from '../dist/index.js'

const ROUNDS = Number(process.env.ROUNDS ?? 30)
const TTFB_MS = 200
const TEXT = [
  'The weather is ',
  'sunny today. ',
  'It will be warm ',
  'this afternoon. ',
  'Enjoy your day!',
]
const PIECE_INTERVAL_MS = 30

const fake = await createFakeElevenLabsTTS({
  defaultReply: {
    type: 'speech',
    firstAudioDelayMs: TTFB_MS,
    msPerChar: 60,
    charsPerMessage: 8,
    chunkDelayMs: 160,
  },
})
const tts = new ElevenLabsTTS({ apiKey: 'bench', voiceId: 'bench', baseURL: fake.baseURL })
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** One answer: its longest silence at the client and the time to its first audio, in ms. */
function speakOnce() {
  return new Promise((resolve, reject) => {
    let sentenceAt = 0 // when the first sentence's text is complete
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
      resolve({ silence, firstAudio: firstAt - sentenceAt - TTFB_MS })
    }
    const onFailed = (error) => {
      cleanup()
      reject(error)
    }
    tts.on('Audio', onAudio)
    tts.once('AudioEnd', onEnd)
    tts.once('Failed', onFailed)
    const text = new PassThrough()
    tts.speak(text)
    void (async () => {
      for (const [index, piece] of TEXT.entries()) {
        if (index === 1) sentenceAt = performance.now()
        text.write(piece)
        await sleep(PIECE_INTERVAL_MS)
      }
      text.end()
    })()
  })
}

/** A bare client on an open connection: first sentence sent with a flush, to its first audio. */
async function rawFirstAudio(socket, round) {
  const contextId = `raw_${round}`
  const start = performance.now()
  const first = new Promise((resolve) => {
    const onMessage = (data) => {
      const message = JSON.parse(String(data))
      if (message.contextId === contextId && message.audio) {
        socket.off('message', onMessage)
        resolve(performance.now() - start - TTFB_MS)
      }
    }
    socket.on('message', onMessage)
  })
  socket.send(JSON.stringify({ text: ' ', context_id: contextId }))
  socket.send(
    JSON.stringify({ text: TEXT.slice(0, 2).join(''), context_id: contextId, flush: true })
  )
  const ms = await first
  socket.send(JSON.stringify({ context_id: contextId, close_context: true }))
  return ms
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

await sleep(300) // the connection opens at creation
const raw = new WebSocket(
  `${fake.baseURL.replace('http', 'ws')}/v1/text-to-speech/bench/multi-stream-input?model_id=eleven_turbo_v2_5&output_format=pcm_16000`,
  { headers: { 'xi-api-key': 'bench' } }
)
await new Promise((resolve) => raw.once('open', resolve))
const silences = []
const firsts = []
const raws = []
for (let round = 0; round < ROUNDS; round++) {
  const { silence, firstAudio } = await speakOnce()
  silences.push(silence)
  firsts.push(firstAudio)
  raws.push(await rawFirstAudio(raw, round))
}
raw.close()
tts.destroy()
await fake.close()
const ms = (value) => `${value.toFixed(1)} ms`
console.log(`${ROUNDS} answers of three sentences, streamed a piece every ${PIECE_INTERVAL_MS} ms:`)
console.log(`| point | ElevenLabsTTS | bare ws client |`)
console.log(`| --- | --- | --- |`)
console.log(`| longest silence between sentences, max | ${ms(Math.max(...silences))} | |`)
console.log(
  `| first audio − scripted ${TTFB_MS} ms, p50 | ${ms(percentile(firsts, 50))} | ${ms(percentile(raws, 50))} |`
)
console.log(
  `| first audio − scripted ${TTFB_MS} ms, p99 | ${ms(percentile(firsts, 99))} | ${ms(percentile(raws, 99))} |`
)
