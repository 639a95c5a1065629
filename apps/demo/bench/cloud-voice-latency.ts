// The framework's own time in a whole turn, for every shipped pipeline: end of speech → first
// answer audio at the client, through a real MicdropServer and a WebSocket client on 127.0.0.1
// that streams its speech and plays the answer in real time (bench/cloud/playing-client.ts). The
// providers' own classes talk to openmic's fake servers with scripted latencies (STT 150, model
// 300, TTS 200 ms: bench/cloud/pipelines.ts), run in a child process as a real provider runs on
// its own machine (bench/cloud/remote-fakes.ts); what is left once the scripted latencies are
// taken out is openmic's (with the client's share, which the mocks' row shows).
// Core's mocks scripted the same way are the reference. The local pipeline has no script: its
// stages are its own compute, so its framework time is the end to end minus the three stages as
// the server measured them (what the call adds between and around them).
//
// All pipelines run in the same process at once, one call each, their turns drifting against each
// other (a random pause after each), so the machine's noise and each other's work hit all alike.
// Usage: pnpm bench:cloud   (TURNS=200 by default, after one turn not counted; PIPELINES=mocks,gladia
// runs only those)
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { MicdropServer } from '@openmic/server'
import { WebSocketServer } from 'ws'
import { pipelines, type Pipeline } from './cloud/pipelines.js'
import { GcPauses } from './cloud/gc-pauses.js'
import { FakeHost } from './cloud/remote-fakes.js'
import { PlayingClient, type HeardTurn } from './cloud/playing-client.js'

const TURNS = Number(process.env.TURNS ?? 200)
const only = process.env.PIPELINES?.split(',')

interface Turn {
  /** End of speech → first audio at the client, minus the scripted latencies (local: its stages). */
  framework: number
  /** Each stage as the server measured it, minus its scripted latency. */
  stt: number
  agent: number
  tts: number
  stall: number
  /** The garbage collector's pauses between end of speech and first audio. */
  gc: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function quantile(values: number[], q: number): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}

function frameworkTime(pipeline: Pipeline, heard: HeardTurn): Turn {
  const { sttMs = NaN, agentFirstTextMs = NaN, ttsFirstAudioMs = NaN } = heard.metrics
  const { stt, agent, tts } = pipeline.scriptedMs
  const scripted = stt + agent + tts
  return {
    framework:
      heard.firstAudioMs - (scripted > 0 ? scripted : sttMs + agentFirstTextMs + ttsFirstAudioMs),
    stt: sttMs - stt,
    agent: agentFirstTextMs - agent,
    tts: ttsFirstAudioMs - tts,
    stall: heard.stallMs,
    gc: gcPauses.within(heard.stoppedAt, heard.stoppedAt + heard.firstAudioMs),
  }
}

async function run(pipeline: Pipeline): Promise<{ heard: HeardTurn[]; lost: number }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on(
    'connection',
    (socket) => new MicdropServer(socket, { ...pipeline.make(), sendMetrics: true })
  )
  const client = await PlayingClient.connect(
    `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
  )
  await sleep(500 + Math.random() * 1000) // the STT's socket opens; the calls start apart
  // One turn first, not counted: the first of a process loads code and warms the JIT.
  pipeline.script()
  await client.turn(pipeline.speech)
  const heard: HeardTurn[] = []
  let lost = 0
  for (let turn = 0; turn < TURNS; turn++) {
    pipeline.script()
    const one = await client.turn(pipeline.speech)
    if (one) heard.push(one)
    else lost++
    if ((turn + 1) % 50 === 0) console.error(`${pipeline.id}: ${turn + 1} turns`)
    await sleep(100 + Math.random() * 300) // the user's pause, and the calls drift apart
  }
  client.close()
  wss.close()
  return { heard, lost }
}

const fakes = new FakeHost()
const chosen = await Promise.all(
  Object.entries(pipelines)
    .filter(([id]) => !only || only.includes(id))
    .map(([, make]) => make(fakes))
)
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')
const loadBefore = load()
const startedAt = Date.now()
const gcPauses = new GcPauses()
const LOOP_RESOLUTION_MS = 10
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })
loopDelay.enable()
const results = await Promise.all(chosen.map(run))
loopDelay.disable()
gcPauses.stop()
fakes.close()

const cell = (values: number[]) =>
  `${quantile(values, 0.5).toFixed(1).padStart(5)} | ${quantile(values, 0.99).toFixed(1).padStart(5)}`
console.log(
  `\nEnd of speech → first answer audio at the client, minus the providers' scripted latency ` +
    `(STT 150, model 300, TTS 200 ms), and each stage as the server measured it minus its own; ` +
    `${TURNS} turns per pipeline, all at once (${((Date.now() - startedAt) / 1000).toFixed(0)} s, ` +
    `load average ${loadBefore} before, ${load()} after); ms, p50 | p99:\n`
)
console.log(
  `| pipeline                                    | framework p50 |   p99 | STT p50 |   p99 | agent p50 |   p99 | TTS p50 |   p99 | stall p50 |   p99 | GC p50 |   p99 |`
)
console.log(
  `| ------------------------------------------- | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: |`
)
chosen.forEach((pipeline, i) => {
  const { heard, lost } = results[i]!
  const turns = heard.map((one) => frameworkTime(pipeline, one))
  const column = (key: keyof Turn) => cell(turns.map((turn) => turn[key]))
  const name = pipeline.name + (lost ? ` (${lost} lost)` : '')
  console.log(
    `| ${name.padEnd(43)} | ${column('framework')} | ${column('stt')} | ${column('agent')} | ${column('tts')} | ${column('stall')} | ${column('gc')} |`
  )
})
const gc = gcPauses.summary()
// The histogram holds the time between its timer's runs: its interval, and the delay beyond it.
const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS).toFixed(1)
console.log(
  `\nEvent loop delay p50 ${ms(loopDelay.percentile(50))}, p99 ${ms(loopDelay.percentile(99))}, ` +
    `max ${ms(loopDelay.max)} ms; GC: ${gc.count} pauses, ${gc.totalMs.toFixed(0)} ms in all, ` +
    `longest ${gc.maxMs.toFixed(1)} ms.`
)
console.log(
  `\nLocal: its stages are its own compute (pocketsphinx, the agent, flite), shown as measured; its ` +
    `framework time is the end to end minus those three stages. Stall: the client's playback ` +
    `waiting for audio after the first frame (it has no jitter buffer, and fakes that pace their ` +
    `audio at real time show their timers' lateness there). GC: the pauses between end of speech ` +
    `and first audio.`
)
