// Voice-to-voice latency with and without preemptive answers, in one run: a MicdropServer on a
// real WebSocket on 127.0.0.1, a scripted model that takes 300 ms to its first token (MockAgent),
// MockSTT and MockTTS. The client streams each turn at real-time pace: 300 ms of speech, in half
// of the turns a 200 ms pause and 300 ms more (the user goes on), then the client VAD's 500 ms of
// end-of-speech silence and StopSpeaking. An openmic client that reports pauses sends
// PauseSpeaking when the speech stops and ResumeSpeaking when it goes on. Timed: from the end of
// the user's last speech to the first answer audio frame. Also counted: model calls per turn
// (each pause the user goes on after costs one). The two calls take turns, one turn each, which
// of them goes first alternating, so that both see the same machine.
// Run: pnpm --filter @openmic/core --filter @openmic/server build && node bench/preemptive.mjs [turns per side, default 100]
import { WebSocket, WebSocketServer } from 'ws'
import { MicdropServer, MockAgent, MockSTT, MockTTS } from './build.mjs'

const TURNS = Number(process.argv[2] ?? 100)
const FIRST_TOKEN_MS = 300
const END_SILENCE_MS = 500
const GO_ON_PAUSE_MS = 200
const SPEECH_MS = 300
const CHUNK_MS = 100
const CHUNK = Buffer.alloc(32 * CHUNK_MS, 5)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** One call: its server counts the model calls, its client plays the turns. */
async function openCall(wss, preemptive) {
  const counts = { modelCalls: 0 }
  wss.once('connection', (socket) => {
    const agent = new MockAgent({ firstWordDelayMs: FIRST_TOKEN_MS, answers: ['Sure, at eight.'] })
    const answer = agent.answer.bind(agent)
    agent.answer = () => {
      counts.modelCalls++
      return answer()
    }
    new MicdropServer(socket, { agent, stt: new MockSTT(), tts: new MockTTS(), preemptive })
  })
  const socket = new WebSocket(`ws://127.0.0.1:${wss.address().port}`)
  await new Promise((resolve) => socket.once('open', resolve))
  let onAudio
  let onAnswered
  socket.on('message', (data, isBinary) => {
    if (isBinary) return onAudio?.()
    if (data.toString().startsWith('Message {"role":"assistant"')) onAnswered?.()
  })
  await sleep(100) // the opening SkipAnswer
  const stream = async (ms) => {
    for (let sent = 0; sent < ms; sent += CHUNK_MS) {
      socket.send(CHUNK)
      await sleep(CHUNK_MS)
    }
  }
  const pause = (ms) => (preemptive ? socket.send('PauseSpeaking') : undefined, stream(ms))

  /** One turn; returns the ms from the end of the speech to the first answer audio. */
  async function turn(goesOn) {
    onAudio = undefined
    socket.send('StartSpeaking')
    await stream(SPEECH_MS)
    if (goesOn) {
      await pause(GO_ON_PAUSE_MS)
      if (preemptive) socket.send('ResumeSpeaking')
      await stream(SPEECH_MS)
    }
    const speechEnd = performance.now()
    const firstAudio = new Promise((resolve) => (onAudio = () => resolve(performance.now())))
    const answered = new Promise((resolve) => (onAnswered = resolve))
    await pause(END_SILENCE_MS)
    socket.send('StopSpeaking')
    const at = await firstAudio
    onAudio = undefined
    await answered
    await sleep(200)
    return at - speechEnd
  }
  return { counts, turn, close: () => socket.close() }
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
await new Promise((resolve) => wss.once('listening', resolve))
const modes = [
  { name: 'without preemptive answers', call: await openCall(wss, false), times: [] },
  { name: 'preemptive: true', call: await openCall(wss, true), times: [] },
]
for (let i = 0; i < TURNS; i++) {
  // Every other turn the user goes on after a pause; every other pair of turns the other call first
  const order = Math.floor(i / 2) % 2 === 0 ? modes : [...modes].reverse()
  for (const mode of order) mode.times.push(await mode.call.turn(i % 2 === 1))
}
for (const mode of modes) mode.call.close()
wss.close()

const row = (cells) => `| ${cells.join(' | ')} |`
console.log(
  `${TURNS} turns each (half with a ${GO_ON_PAUSE_MS} ms pause the user goes on after), model ${FIRST_TOKEN_MS} ms to first token, ${END_SILENCE_MS} ms end-of-speech silence`
)
const ms = (value) => `${value.toFixed(0)} ms`
console.log(
  row([
    '',
    'speech end → first audio p50',
    'p99',
    'p50, turns with a pause',
    'model calls per turn',
  ])
)
console.log(row(['---', '---:', '---:', '---:', '---:']))
for (const { name, call, times } of modes) {
  const paused = times.filter((_, i) => i % 2 === 1)
  console.log(
    row([
      name,
      ms(percentile(times, 50)),
      ms(percentile(times, 99)),
      ms(percentile(paused, 50)),
      (call.counts.modelCalls / TURNS).toFixed(2),
    ])
  )
}
