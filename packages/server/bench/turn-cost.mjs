// The server's own cost per user turn, in one process, without sockets: MicdropServer on an
// in-memory socket with the zero-latency doubles. Prints, for a slow pace (a turn every 50 ms:
// code and caches are cold, as on a lightly loaded server) and a fast one (back to back), the
// StopSpeaking -> first audio latency the server measures (p50 / p90 / max, and its STT, agent
// and TTS parts), CPU time per turn, and heap allocated per turn (V8 sampling heap profiler).
// CPU is also given at a paced rate (a turn every 5 ms, each call's answer played out before its
// next turn), where code and caches are as cold as on a server with a few hundred calls: the
// fast pace hides what that costs. And cold: before each turn the CPU caches are flushed (a 32 MB
// buffer walked, not counted), and only the turn's own CPU is counted, from its first frame until
// the event loop is idle (each call's answer played out by a pause between rounds, not counted):
// as cold as the paced rate, but without its timer wakeups, so steady from run to run.
// With `--micdrop <checkout>`, the call is Micdrop's server (built from its public source outside
// this project, see micdrop.mjs) with the same doubles: it reports no latency, CPU and heap only.
// Run: pnpm --filter @openmic/core --filter @openmic/server build && node bench/turn-cost.mjs
//   [fast turns] [slow turns] [--micdrop <checkout>]
import { Session } from 'node:inspector/promises'
import { callStarter, MemorySocket } from './calls.mjs'

const args = process.argv.slice(2)
const micdropAt = args.indexOf('--micdrop')
const micdropDir = micdropAt === -1 ? undefined : args.splice(micdropAt, 2)[1]
const startCall = await callStarter(micdropDir)

const CALLS = 100
const FAST_TURNS = Number(args[0] ?? 20000)
const SLOW_TURNS = Number(args[1] ?? 200)
const CHUNK = Buffer.alloc(3200, 3)
const START = Buffer.from('StartSpeaking')
const STOP = Buffer.from('StopSpeaking')

const metrics = []
const sockets = Array.from({ length: CALLS }, () => {
  const socket = new MemorySocket()
  const call = startCall(socket)
  // This build's calls report their metrics (Micdrop's server has none)
  if (!micdropDir) call.on('Metrics', (turn) => metrics.push(turn))
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
    if (turns.length === 0) break // Micdrop's server reports no latency
    const values = turns.map((m) => m[key] ?? 0).sort((a, b) => a - b)
    const at = (p) => values[Math.min(values.length - 1, Math.floor(p * values.length))].toFixed(2)
    line.push(`${key} p50 ${at(0.5)} p90 ${at(0.9)} max ${values.at(-1).toFixed(2)}`)
  }
  // At the slow pace CPU time would be mostly the pauses' timers: not shown (the paced run has one
  // timer per turn, alike for every server).
  if (withCpu) line.push(`CPU ${cpuPerTurnUs.toFixed(1)} µs/turn`)
  console.log(line.join('\n  '))
}

/** Walked before each cold turn: bigger than the CPU's caches, so the turn finds none of its own. */
const evictor = new Float64Array(4 << 20)
function evictCaches() {
  for (let i = 0; i < evictor.length; i += 8) evictor[i] += 1
}

/** CPU per turn with cold caches: the turn's own CPU only (see the header). */
async function coldCpuPerTurn(turns) {
  let used = 0
  await sleep(400) // the answers of the runs before play out
  for (let t = 0; t < turns; t++) {
    evictCaches()
    const cpu = process.cpuUsage()
    turn(sockets[t % CALLS])
    await nextLoop()
    const turnCpu = process.cpuUsage(cpu)
    used += turnCpu.user + turnCpu.system
    // Each call's answer plays out before its next turn
    if (t % CALLS === CALLS - 1) await sleep(400)
  }
  return used / turns
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
summary(`paced (a turn every 5 ms, 2000 turns):`, await run(2000, 5), true)
summary(`fast (back to back, ${FAST_TURNS} turns):`, await run(FAST_TURNS, 0), true)
console.log(
  `cold (caches flushed before each turn, 2000 turns): CPU ${(await coldCpuPerTurn(2000)).toFixed(1)} µs/turn`
)
console.log(
  `heap allocated: ${((await allocatedPerTurn(FAST_TURNS / 4)) / 1024).toFixed(1)} KB/turn`
)
process.exit(0)
