// Benchmark server process: a MicdropServer per connection with zero-latency doubles (or, with
// `--reference`, a thin ws server that answers StopSpeaking with audio at once), of this build or
// of BENCH_ROOT's (see build.mjs), or Micdrop's own server with `--micdrop <checkout>` (with the
// same doubles, or its own with `--own-doubles`: see micdrop.mjs). Driven over IPC by run.mjs: reports memory, CPU and event-loop delay for a
// measurement window.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { WebSocketServer } from 'ws'
import { ANSWER, doubles, UTTERANCE } from './calls.mjs'
import { loadMicdrop } from './micdrop.mjs'

const reference = process.argv.includes('--reference')
/** Only idle calls are measured: no listener of the bench's on them (it would count as theirs). */
const idleOnly = process.argv.includes('--idle')
const micdropAt = process.argv.indexOf('--micdrop')
// Only the server under test is loaded.
const startMicdropCall =
  micdropAt === -1
    ? undefined
    : loadMicdrop(process.argv[micdropAt + 1], {
        answer: ANSWER,
        utterance: UTTERANCE,
        doubles,
        ownDoubles: process.argv.includes('--own-doubles'),
      })
const { MicdropServer } = startMicdropCall ? {} : await import('./build.mjs')
const referenceAudio = Buffer.alloc(ANSWER.length * 10 * 32, 1)
const referenceMessage = `Message ${JSON.stringify({ role: 'assistant', content: ANSWER })}`

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 1 << 20 })
wss.on('connection', (socket) => {
  if (reference) {
    socket.send('SkipAnswer')
    socket.on('message', (data, isBinary) => {
      if (!isBinary && data.toString() === 'StopSpeaking') {
        socket.send(referenceAudio)
        socket.send(referenceMessage)
      }
    })
    return
  }
  if (startMicdropCall) return void startMicdropCall(socket)
  const call = new MicdropServer(socket, doubles())
  if (idleOnly) return
  // StopSpeaking -> first audio frame handed to the socket, as the server measures it.
  call.on('Metrics', (metrics) => window?.endToEnd.push(metrics.endToEndMs))
})

// The histogram records whole sampling intervals: the delay is what exceeds the interval.
const LOOP_SAMPLING_MS = 1
const loop = monitorEventLoopDelay({ resolution: LOOP_SAMPLING_MS })
const loopDelayMs = (ns) => Math.max(0, ns / 1e6 - LOOP_SAMPLING_MS)
let window

function memory() {
  for (let i = 0; i < 3; i++) global.gc()
  const { heapUsed, rss } = process.memoryUsage()
  return { heapUsed, rss }
}

process.on('message', (message) => {
  if (message.type === 'memory') process.send({ type: 'memory', ...memory() })
  if (message.type === 'window-start') {
    loop.enable()
    loop.reset()
    window = { cpu: process.cpuUsage(), at: performance.now(), endToEnd: [] }
  }
  if (message.type === 'window-end') {
    const cpu = process.cpuUsage(window.cpu)
    const wallMs = performance.now() - window.at
    process.send({
      type: 'window',
      cpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
      loopP99Ms: loopDelayMs(loop.percentile(99)),
      loopMaxMs: loopDelayMs(loop.max),
      endToEnd: window.endToEnd,
    })
    window = undefined
    loop.disable()
  }
  if (message.type === 'exit') process.exit(0)
})

wss.on('listening', () => process.send({ type: 'ready', port: wss.address().port }))
