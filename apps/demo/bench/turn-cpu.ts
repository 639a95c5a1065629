// The CPU of a whole turn, for every pipeline on fakes: what one call costs the process that
// serves it (the voice server, the providers' own clients, the resampling of their audio), the
// figure that says how many calls a core can carry. The providers are openmic's fake servers in a
// child process (bench/cloud/remote-fakes.ts) with the scripted latencies of bench/cloud/pipelines.ts;
// the caller is a Micdrop client on a WebSocket in this process (it speaks the pipeline's question
// in 100 ms frames at real-time pace, then waits for the whole answer's audio), the same for every
// pipeline. A turn's CPU is the process's (every thread: the collector's too) from StartSpeaking
// to the answer's last audio. Each server has a run first that is not counted (the JIT warms up),
// and each run has a few turns first that are not either.
//
// With MICDROP=<checkout>, Micdrop's own server (built from its public source outside this project,
// see packages/server/bench/micdrop.mjs) serves the same pipeline with the same parts, its runs
// alternating with this server's: the two servers compared on the whole path.
// Usage: pnpm --filter @openmic/demo bench:turn-cpu   (TURNS=20 counted per run after 5 that warm
// up, RUNS=3, PIPELINES=openai,mistral to pick, MICDROP=<dir> to compare)
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Agent, STT, TTS } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import WebSocket, { WebSocketServer } from 'ws'
import { pipelines, type Pipeline } from './cloud/pipelines.js'
import { FakeHost } from './cloud/remote-fakes.js'
import { median } from './stats.js'

const TURNS = Number(process.env.TURNS ?? 20)
const WARMUP_TURNS = 5
const RUNS = Number(process.env.RUNS ?? 3)
const only = process.env.PIPELINES?.split(',')
const micdropDir = process.env.MICDROP
/** The answer is over once no audio came for this long after some did. */
const QUIET_MS = 300
const TURN_TIMEOUT_MS = 15_000
const FRAME_BYTES = 3200

type Parts = { agent: Agent; stt: STT; tts: TTS }
type StartCall = (socket: WebSocket, parts: Parts) => void

const servers: Record<string, StartCall> = {
  'this server': (socket, parts) => new MicdropServer(socket, parts),
}
if (micdropDir) {
  const manifest = join(resolve(micdropDir), 'packages/server/package.json')
  const { MicdropServer: Micdrop } = createRequire(manifest)('./dist/index.js')
  servers.Micdrop = (socket, parts) => new Micdrop(socket, parts)
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

/** A Micdrop client: speaks, then waits for the answer's audio to come and stop. */
class Caller {
  private audioBytes = 0
  private lastAudioAt = 0

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return
      this.audioBytes += data.length
      this.lastAudioAt = performance.now()
    })
  }

  static async connect(url: string): Promise<Caller> {
    const socket = new WebSocket(url)
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    return new Caller(socket)
  }

  /** One turn; returns the audio received (bytes), 0 if none came in time. */
  async turn(speech: Buffer): Promise<number> {
    const before = this.audioBytes
    this.socket.send('StartSpeaking')
    for (let offset = 0; offset < speech.length; offset += FRAME_BYTES) {
      this.socket.send(speech.subarray(offset, offset + FRAME_BYTES))
      await sleep(100)
    }
    this.socket.send('StopSpeaking')
    const deadline = performance.now() + TURN_TIMEOUT_MS
    while (performance.now() < deadline) {
      await sleep(20)
      const came = this.audioBytes > before
      if (came && performance.now() - this.lastAudioAt >= QUIET_MS) break
    }
    return this.audioBytes - before
  }

  close(): void {
    this.socket.close()
  }
}

/** One run: a call on `start`, warmed up, then TURNS turns; CPU µs per turn. */
async function run(pipeline: Pipeline, start: StartCall): Promise<number> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on('connection', (socket) => start(socket, pipeline.make()))
  const caller = await Caller.connect(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`)
  await sleep(300) // the STT's connection opens
  let cpu = 0
  for (let turn = 0; turn < WARMUP_TURNS + TURNS; turn++) {
    pipeline.script()
    const before = cpuNow()
    const audio = await caller.turn(pipeline.speech)
    if (audio === 0) throw new Error(`${pipeline.id}: no answer audio within ${TURN_TIMEOUT_MS} ms`)
    if (turn >= WARMUP_TURNS) cpu += cpuNow() - before
    await sleep(100)
  }
  caller.close()
  wss.close()
  return cpu / TURNS
}

const fakes = new FakeHost()
const names = Object.keys(servers)
console.log(`CPU of a whole turn (ms: median of ${RUNS} runs of ${TURNS} turns, and each run)\n`)
console.log(`| pipeline | ${names.map((name) => `${name} | runs`).join(' | ')} |`)
console.log(`|---|${names.map(() => '---|---').join('|')}|`)
for (const [id, make] of Object.entries(pipelines)) {
  if (only ? !only.includes(id) : id === 'local') continue
  const pipeline = await make(fakes)
  const runs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  // A run of each, not counted: the first calls of a process load code and keep the compiler's
  // threads busy (their CPU is the process's), for more turns than a run's first few.
  for (const name of names) await run(pipeline, servers[name]!)
  for (let r = 0; r < RUNS; r++) {
    // Each server goes first every other run: the second finds the machine as the first left it.
    const order = r % 2 === 0 ? names : [...names].reverse()
    for (const name of order) runs[name]!.push(await run(pipeline, servers[name]!))
  }
  const cells = names.map((name) => {
    const ms = runs[name]!.map((us) => us / 1000)
    return `${median(ms).toFixed(1)} | ${ms.map((value) => value.toFixed(1)).join(' ')}`
  })
  console.log(`| ${pipeline.name} | ${cells.join(' | ')} |`)
}
fakes.close()
