// What instrumentCall costs a turn: the server's own CPU time per user turn (and its StopSpeaking
// -> first audio latency), side by side for calls not instrumented, instrumented with no
// OpenTelemetry SDK registered (the API's no-op), and instrumented with the real SDK (every span
// processed and exported, to an exporter that drops them; histograms aggregated). One process,
// calls without a transport, core's zero-latency doubles; the three run in alternating rounds so that
// warm-up and drift weigh alike on each. Prints medians over the rounds and latency p50 / p99.
// Run: pnpm --filter @openmic/otel... build && node bench/turn-cost.mjs [turnsPerRound] [rounds]
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { CallServer } from '@openmic/server'
import { quantile } from '@openmic/testing'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { instrumentCall } from '../dist/index.js'

const CALLS = 50
const TURNS = Number(process.argv[2] ?? 5000)
const ROUNDS = Number(process.argv[3] ?? 7)
const USER_AUDIO = Buffer.alloc(3200, 3) // 100 ms of PCM16 16 kHz

/**
 * A call with no transport at all: what the user does goes straight to the call's input, what it
 * sends goes nowhere. Only the call and what listens to it are measured.
 */
class BenchCall extends CallServer {
  constructor(options) {
    super(options)
    this.open()
    this.input.clientKnown()
  }
  sendFrame() {}
  sendAudio() {}
  closeTransport() {}
  /** One user turn: a second of speech, then StopSpeaking. */
  userTurn() {
    this.input.startSpeaking()
    for (let i = 0; i < 10; i++) this.input.userAudio(USER_AUDIO)
    this.input.stopSpeaking()
  }
}

/** A reader never collected: the SDK still aggregates every measurement. */
class IdleReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

let exportedSpans = 0
const sdk = {
  tracerProvider: new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({
        export: (spans, done) => {
          exportedSpans += spans.length
          done({ code: 0 })
        },
        shutdown: async () => {},
      }),
    ],
  }),
  meterProvider: new MeterProvider({ readers: [new IdleReader()] }),
}

const MODES = {
  'not instrumented': undefined,
  'instrumented, no SDK': {},
  'instrumented, real SDK': sdk,
}

/** Calls of one mode, open for the whole run (the call spans stay open: one per call). */
function openCalls(options, metrics) {
  return Array.from({ length: CALLS }, () => {
    const call = new BenchCall({
      agent: new MockAgent({ answers: ['Sure, here you go.'] }),
      stt: new MockSTT({ utterances: ['Hello'] }),
      tts: new MockTTS(),
    })
    if (options) instrumentCall(call, options)
    call.on('Metrics', (turn) => metrics.push(turn.endToEndMs ?? 0))
    return call
  })
}

const nextLoop = () => new Promise((resolve) => setImmediate(resolve))

async function round(calls, turns) {
  const cpu = process.cpuUsage()
  for (let t = 0; t < turns; t++) {
    calls[t % CALLS].userTurn()
    await nextLoop()
  }
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) / turns
}

const runs = Object.entries(MODES).map(([name, options]) => {
  const latencies = []
  return { name, latencies, calls: openCalls(options, latencies), cpu: [] }
})
for (const run of runs) await round(run.calls, TURNS / 2) // warm-up
for (const run of runs) run.latencies.length = 0
for (let r = 0; r < ROUNDS; r++) for (const run of runs) run.cpu.push(await round(run.calls, TURNS))

console.log(
  `${ROUNDS} rounds of ${TURNS} turns per mode, ${CALLS} calls each (Node ${process.version})`
)
for (const { name, cpu, latencies } of runs) {
  console.log(
    `${name.padEnd(24)} CPU ${quantile(cpu, 0.5).toFixed(1).padStart(6)} µs/turn (median of rounds)` +
      `   StopSpeaking->first audio p50 ${quantile(latencies, 0.5).toFixed(2)} ms p99 ${quantile(latencies, 0.99).toFixed(2)} ms`
  )
}
console.log(`spans exported by the real SDK: ${exportedSpans}`)
process.exit(0)
