// ElevenLabsTTS speaking a three-sentence answer streamed as a model would (a piece every 30 ms)
// against the fake multi-context server on loopback, with a scripted time to first audio of 200 ms
// per context and speech sent at 3x real time. A client playing the audio in real time from its
// first chunk hears silence whenever a chunk arrives after the audio before it has finished
// playing; this prints, over the rounds, the longest such silence of each answer and the time to
// first audio (from the end of the first sentence's text) minus the scripted 200 ms, beside a bare
// `ws` client sending the first sentence with a flush on an open connection (what the protocol
// itself costs).
// Run after `pnpm build`: `pnpm --filter @openmic/elevenlabs bench:tts` (ROUNDS=... to change).
import { benchTtsGaps, createFakeElevenLabsTTS, streamPieces } from '@openmic/testing'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
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

await sleep(300) // the connection opens at creation
const raw = new WebSocket(
  `${fake.baseURL.replace('http', 'ws')}/v1/text-to-speech/bench/multi-stream-input?model_id=eleven_turbo_v2_5&output_format=pcm_16000`,
  { headers: { 'xi-api-key': 'bench' } }
)
await new Promise((resolve) => raw.once('open', resolve))

const bench = {
  name: 'ElevenLabsTTS',
  rawName: 'bare `ws` client',
  rounds: ROUNDS,
  ttfbMs: TTFB_MS,
  answer: `three sentences streamed a piece every ${PIECE_INTERVAL_MS} ms (first audio from the first sentence's end)`,
  tts,
  // The time to first audio counts from the end of the first sentence's text.
  text: (mark) => streamPieces(TEXT, PIECE_INTERVAL_MS, (index) => index === 1 && mark()),
  raw: (round) => rawFirstAudio(raw, round),
}
console.log(await benchTtsGaps(bench))
raw.close()
tts.destroy()
await fake.close()
