// Time OpenaiSTT takes from the end of an utterance to its Transcript, on loopback against the
// fake Realtime server, which answers each commit after a scripted delay (150 ms: the provider's
// own latency). Compared with a raw `ws` client speaking the same protocol on its own warm
// connection (24 kHz audio ready, no resampling): rounds alternate, order rotated.
// Each utterance is 1 s of audio in 20 ms chunks, written before the end is timed (as a call's
// audio streams while the user speaks); the timed region is end of audio -> final transcript.
// Run: pnpm --filter @openmic/testing --filter @openmic/openai build && node bench/stt-latency.mjs [rounds] [delayMs]
import { PassThrough } from 'node:stream'
import { createFakeOpenaiRealtime } from '@openmic/testing'
import { WebSocket } from 'ws'
import { OpenaiSTT } from '../dist/index.js'

const ROUNDS = Number(process.argv[2] ?? 200)
const DELAY_MS = Number(process.argv[3] ?? 150)
const WARMUP = 20

const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-bench' })

/** 1 s of a tone at `rate` Hz, PCM16, in 20 ms chunks. */
function chunks(rate) {
  const size = (rate / 50) * 2
  const audio = Buffer.alloc(rate * 2)
  for (let i = 0; i < rate; i++) audio.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2)
  return Array.from({ length: 50 }, (_, i) => audio.subarray(i * size, (i + 1) * size))
}
const audio16k = chunks(16_000)
const audio24k = chunks(24_000)
const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

const stt = new OpenaiSTT({ apiKey: 'sk-bench', baseURL: fake.baseURL })

async function viaSTT() {
  const stream = new PassThrough()
  const transcript = new Promise((resolve, reject) => {
    stt.once('Transcript', resolve)
    stt.once('Failed', reject)
  })
  stt.transcribe(stream)
  for (const chunk of audio16k) stream.write(chunk)
  await settle()
  const start = performance.now()
  stream.end()
  await transcript
  return performance.now() - start
}

const raw = new WebSocket(`${fake.baseURL.replace('http', 'ws')}/realtime?intent=transcription`, {
  headers: { Authorization: 'Bearer sk-bench' },
})
await new Promise((resolve) => raw.once('open', resolve))
const session = { type: 'transcription', audio: { input: { turn_detection: null } } }
raw.send(JSON.stringify({ type: 'session.update', session }))
let onCompleted = () => {}
raw.on('message', (data) => {
  const event = JSON.parse(data.toString())
  if (event.type === 'conversation.item.input_audio_transcription.completed') onCompleted()
})

async function viaRaw() {
  for (const chunk of audio24k) {
    raw.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: chunk.toString('base64') }))
  }
  await settle()
  const start = performance.now()
  const done = new Promise((resolve) => (onCompleted = resolve))
  raw.send(JSON.stringify({ type: 'input_audio_buffer.commit' }))
  await done
  return performance.now() - start
}

const results = { raw: [], stt: [] }
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  fake
    .replyTranscript('hello', { delayMs: DELAY_MS })
    .replyTranscript('hello', { delayMs: DELAY_MS })
  const order = round % 2 === 0 ? ['raw', 'stt'] : ['stt', 'raw']
  for (const side of order) {
    const ms = side === 'raw' ? await viaRaw() : await viaSTT()
    if (round >= WARMUP) results[side].push(ms - DELAY_MS)
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const diffs = results.stt.map((ms, i) => ms - results.raw[i])
const row = (name, values) =>
  `| ${name.padEnd(18)} | ${quantile(values, 0.5).toFixed(2).padStart(7)} ms | ${quantile(values, 0.99).toFixed(2).padStart(7)} ms |`
console.log(
  `End of utterance -> Transcript, minus the scripted ${DELAY_MS} ms (${ROUNDS} rounds, Node ${process.version})\n`
)
console.log('| side               |       p50  |       p99  |')
console.log('| ------------------ | ---------- | ---------- |')
console.log(row('raw ws client', results.raw))
console.log(row('OpenaiSTT', results.stt))
console.log(row('added (per round)', diffs))

stt.destroy()
raw.close()
await fake.close()
