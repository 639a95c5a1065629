// The server's own cost per user turn, in one process, without sockets: MicdropServer on an
// in-memory socket with the zero-latency doubles. Prints, for a slow pace (a turn every 50 ms:
// code and caches are cold, as on a lightly loaded server) and a fast one (back to back), the
// StopSpeaking -> first audio latency the server measures (p50 / p90 / max, and its STT, agent
// and TTS parts), CPU time per turn, and heap allocated per turn (V8 sampling heap profiler).
// Run: pnpm --filter @openmic/core --filter @openmic/server build && node bench/turn-cost.mjs
import { EventEmitter } from 'node:events'
import { Session } from 'node:inspector/promises'
import { MicdropServer, MockAgent, MockSTT, MockTTS } from './build.mjs'

const CALLS = 100
const FAST_TURNS = Number(process.argv[2] ?? 20000)
const SLOW_TURNS = Number(process.argv[3] ?? 200)
const CHUNK = Buffer.alloc(3200, 3)
const START = Buffer.from('StartSpeaking')
const STOP = Buffer.from('StopSpeaking')

/** What MicdropServer needs of a `ws` socket. */
class MemorySocket extends EventEmitter {
  readyState = 1
  send() {}
}

const metrics = []
const sockets = Array.from({ length: CALLS }, () => {
  const socket = new MemorySocket()
  const call = new MicdropServer(socket, {
    agent: new MockAgent({ answers: ['Sure, here you go.'] }),
    stt: new MockSTT({ utterances: ['Hello'] }),
    tts: new MockTTS(),
  })
  call.on('Metrics', (turn) => metrics.push(turn))
  return socket
})

function turn(socket) {
  socket.emit('message', START, false)
  for (let i = 0; i < 10; i++) socket.emit('message', CHUNK, true)
  socket.emit('message', STOP, false)
}

const nextLoop = () => new Promise((resolve) => setImmediate(resolve))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function run(turns, pauseMs) {
  metrics.length = 0
  const cpu = process.cpuUsage()
  for (let t = 0; t < turns; t++) {
    turn(sockets[t % CALLS])
    await (pauseMs > 0 ? sleep(pauseMs) : nextLoop())
  }
  const used = process.cpuUsage(cpu)
  return { cpuPerTurnUs: (used.user + used.system) / turns, metrics: [...metrics] }
}

function summary(label, { metrics: turns, cpuPerTurnUs }, withCpu) {
  const line = [label]
  for (const key of ['endToEndMs', 'sttMs', 'agentFirstTextMs', 'ttsFirstAudioMs']) {
    const values = turns.map((m) => m[key] ?? 0).sort((a, b) => a - b)
    const at = (p) => values[Math.min(values.length - 1, Math.floor(p * values.length))].toFixed(2)
    line.push(`${key} p50 ${at(0.5)} p90 ${at(0.9)} max ${values.at(-1).toFixed(2)}`)
  }
  // At the slow pace, CPU time also counts the timers of the pauses: shown for the fast one only.
  if (withCpu) line.push(`CPU ${cpuPerTurnUs.toFixed(1)} µs/turn`)
  console.log(line.join('\n  '))
}

async function allocatedPerTurn(turns) {
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  })
  await run(turns, 0)
  const { profile } = await session.post('HeapProfiler.stopSampling')
  session.disconnect()
  let bytes = 0
  const walk = (node) => {
    bytes += node.selfSize
    node.children.forEach(walk)
  }
  walk(profile.head)
  return bytes / turns
}

await run(5000, 0) // warm-up
summary(`slow (a turn every 50 ms, ${SLOW_TURNS} turns):`, await run(SLOW_TURNS, 50), false)
summary(`fast (back to back, ${FAST_TURNS} turns):`, await run(FAST_TURNS, 0), true)
console.log(
  `heap allocated: ${((await allocatedPerTurn(FAST_TURNS / 4)) / 1024).toFixed(1)} KB/turn`
)
process.exit(0)
