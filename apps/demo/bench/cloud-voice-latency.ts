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
// Each pipeline on fakes has a second reference, its raw SDK chain (bench/cloud/raw-chain.ts):
// the same turn made with the providers' own clients and no openmic code, on the same fakes with
// the same scripts, from the end of the utterance at the STT to the first audio byte of the TTS,
// minus the same scripted latencies. Its turns alternate with the pipeline's in the same loop
// (each goes first every other turn), so both see the same machine at the same moments.
//
// All pipelines run in the same process at once, one call each, their turns drifting against each
// other (a random pause after each), so the machine's noise and each other's work hit all alike.
// Usage: pnpm bench:cloud   (TURNS=200 by default, after one turn not counted; PIPELINES=mocks,gladia
// runs only those)
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { MicdropServer } from '@openmic/server'
import { WebSocketServer } from 'ws'
import { pipelines, type Pipeline } from './cloud/pipelines.js'
import type { RawChain } from './cloud/raw-chain.js'
import { GcPauses } from './cloud/gc-pauses.js'
import { FakeHost } from './cloud/remote-fakes.js'
import { PlayingClient, type HeardTurn } from './cloud/playing-client.js'

const TURNS = Number(process.env.TURNS ?? 200)
const only = process.env.PIPELINES?.split(',')
/** A raw chain's turn that has no first audio within this time is given up (and counted). */
const RAW_TURN_TIMEOUT_MS = 15_000

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

/** Turn by turn (undefined: lost): the pipeline's, and its raw chain's (ms to first audio). */
interface Run {
  heard: Array<HeardTurn | undefined>
  raw: Array<number | undefined>
}

/** The user's pause after a turn, at random, so that the calls drift apart. */
const pause = () => sleep(100 + Math.random() * 300)

/** One turn of a raw chain, made like the pipeline's (its fakes scripted for its one sentence). */
async function rawTurn(pipeline: Pipeline, chain: RawChain): Promise<number | undefined> {
  pipeline.script(1)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), RAW_TURN_TIMEOUT_MS)
  })
  try {
    return await Promise.race([chain.turn(pipeline.speech), timeout])
  } catch (error) {
    console.error(`${pipeline.id}: the raw chain's turn failed:`, error)
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

async function run(pipeline: Pipeline): Promise<Run> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on(
    'connection',
    (socket) => new MicdropServer(socket, { ...pipeline.make(), sendMetrics: true })
  )
  const client = await PlayingClient.connect(
    `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
  )
  const chain = pipeline.raw?.()
  await sleep(500 + Math.random() * 1000) // the STT's socket opens; the calls start apart
  // One turn of each first, not counted: the first of a process loads code and warms the JIT.
  pipeline.script()
  await client.turn(pipeline.speech)
  if (chain) await rawTurn(pipeline, chain)
  const result: Run = { heard: [], raw: [] }
  for (let turn = 0; turn < TURNS; turn++) {
    // Each goes first every other turn: the second one finds the machine as the first left it.
    const rawFirst = chain !== undefined && turn % 2 === 1
    if (rawFirst) {
      result.raw.push(await rawTurn(pipeline, chain))
      await pause()
    }
    pipeline.script()
    result.heard.push(await client.turn(pipeline.speech))
    if (chain && !rawFirst) {
      await pause()
      result.raw.push(await rawTurn(pipeline, chain))
    }
    if ((turn + 1) % 50 === 0) console.error(`${pipeline.id}: ${turn + 1} turns`)
    await pause()
  }
  chain?.close()
  client.close()
  wss.close()
  return result
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
const scriptedMs = ({ scriptedMs: { stt, agent, tts } }: Pipeline) => stt + agent + tts
console.log(
  `\nEnd of speech → first answer audio at the client, minus the providers' scripted latency ` +
    `(STT 150, model 300, TTS 200 ms), beside the same turn made with the providers' own ` +
    `clients (raw SDK chain), and each stage as the server measured it minus its own; ` +
    `${TURNS} turns per pipeline, all at once (${((Date.now() - startedAt) / 1000).toFixed(0)} s, ` +
    `load average ${loadBefore} before, ${load()} after); ms, p50 | p99:\n`
)
console.log(
  `| pipeline                                    | framework p50 |   p99 | raw SDK chain p50 |   p99 | openmic − raw p50 | STT p50 |   p99 | agent p50 |   p99 | TTS p50 |   p99 | stall p50 |   p99 | GC p50 |   p99 |`
)
console.log(
  `| ------------------------------------------- | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: | ----: |`
)
chosen.forEach((pipeline, i) => {
  const { heard, raw } = results[i]!
  const turns = heard.map((one) => (one ? frameworkTime(pipeline, one) : undefined))
  const kept = turns.filter((turn) => turn !== undefined)
  const column = (key: keyof Turn) => cell(kept.map((turn) => turn[key]))
  // The raw chain's time minus the same scripted latencies, and each turn's difference with the
  // raw chain's turn next to it (turns where either was lost are left out).
  const rawTimes = raw.map((ms) => (ms === undefined ? undefined : ms - scriptedMs(pipeline)))
  const rawKept = rawTimes.filter((ms) => ms !== undefined)
  const differences = turns.flatMap((turn, t) =>
    turn && rawTimes[t] !== undefined ? [turn.framework - rawTimes[t]] : []
  )
  const rawColumns = pipeline.raw
    ? `${cell(rawKept)} | ${quantile(differences, 0.5).toFixed(1).padStart(5)}`
    : `    - |     - |     -`
  const lost = turns.length - kept.length
  const rawLost = pipeline.raw ? raw.length - rawKept.length : 0
  const name =
    pipeline.name +
    (lost ? ` (${lost} lost)` : '') +
    (rawLost ? ` (${rawLost} raw chain turns lost)` : '')
  console.log(
    `| ${name.padEnd(43)} | ${column('framework')} | ${rawColumns} | ${column('stt')} | ${column('agent')} | ${column('tts')} | ${column('stall')} | ${column('gc')} |`
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
  `\nRaw SDK chain: the same turn with the providers' own clients and no openmic code, on the ` +
    `same fakes, from the end of the utterance at the STT to the first audio byte of the first ` +
    `sentence, minus the same scripted latencies; openmic − raw: the median of each turn's ` +
    `difference with the raw chain's turn next to it (- : no raw chain). ` +
    `Local: its stages are its own compute (pocketsphinx, the agent, flite), shown as measured; its ` +
    `framework time is the end to end minus those three stages. Stall: the client's playback ` +
    `waiting for audio after the first frame (it has no jitter buffer, and fakes that pace their ` +
    `audio at real time show their timers' lateness there). GC: the pauses between end of speech ` +
    `and first audio.`
)
