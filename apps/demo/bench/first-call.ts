// The first call of a fresh demo server against the next one, offline (pocketsphinx + flite + the
// local agent). Each run starts `node dist/server/main.js` in a new process (so everything cold is
// cold again), then holds two calls one after the other over a real WebSocket on 127.0.0.1. Per
// call: the time from sending the call's params to the first frame of the greeting's audio, and
// from `StopSpeaking` (after "What time is it?" streamed at real-time pace) to the user `Message`,
// the transcript. Also the time from the process's start to the printed URL. Prints medians.
// `tsx bench/first-call.ts path/to/main.js` runs another build of the server (to compare).
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import { speakPcm } from '../test/speech.js'
import { median } from './stats.js'

const RUNS = Number(process.env.RUNS ?? 5)
const CHUNK_BYTES = 3200 // 100 ms of PCM16 16 kHz mono
const mainScript =
  process.argv[2] ??
  join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'main.js')

interface CallTimes {
  greetingAudioMs: number
  transcriptMs: number
}

/** Starts a demo server process with offline speech; resolves with its URL once it listens. */
async function startServer(): Promise<{ child: ChildProcess; url: string; startMs: number }> {
  const startedAt = performance.now()
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0' }
  Object.assign(env, { OPENMIC_AGENT: 'local', OPENMIC_STT: 'local', OPENMIC_TTS: 'local' })
  const child = spawn(process.execPath, [mainScript], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  for await (const chunk of child.stdout!) {
    output += String(chunk)
    const url = /open (http:\/\/\S+)/.exec(output)?.[1]
    if (url) return { child, url, startMs: performance.now() - startedAt }
  }
  throw new Error(`the demo server exited before listening:\n${output}`)
}

/** One call: greeting, then one question; times both. */
async function call(url: string, question: Buffer): Promise<CallTimes> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/call`)
  await once(socket, 'open')
  let onAudio: (() => void) | undefined
  let onText: ((text: string) => void) | undefined
  socket.on('message', (data, isBinary) => {
    if (isBinary) onAudio?.()
    else onText?.(data.toString())
  })
  const nextText = (prefix: string) =>
    new Promise<number>(
      (resolve) => (onText = (text) => text.startsWith(prefix) && resolve(performance.now()))
    )

  const greetingAudio = new Promise<number>(
    (resolve) => (onAudio = () => resolve(performance.now()))
  )
  const greeted = nextText('Message {"role":"assistant"')
  const connectedAt = performance.now()
  socket.send(JSON.stringify({ token: 'demo' }))
  const greetingAudioMs = (await greetingAudio) - connectedAt
  onAudio = undefined
  await greeted
  await sleep(300)

  socket.send('StartSpeaking')
  for (let offset = 0; offset < question.length; offset += CHUNK_BYTES) {
    socket.send(question.subarray(offset, offset + CHUNK_BYTES))
    await sleep(100)
  }
  const heard = nextText('Message {"role":"user"')
  const stoppedAt = performance.now()
  socket.send('StopSpeaking')
  const transcriptMs = (await heard) - stoppedAt
  await nextText('Message {"role":"assistant"')
  socket.close()
  await once(socket, 'close')
  return { greetingAudioMs, transcriptMs }
}

async function main() {
  const silence = Buffer.alloc(CHUNK_BYTES * 3)
  const question = Buffer.concat([silence, await speakPcm('What time is it?'), silence])
  const rows: Array<{ startMs: number; first: CallTimes; second: CallTimes }> = []
  for (let run = 0; run < RUNS; run++) {
    const { child, url, startMs } = await startServer()
    try {
      const first = await call(url, question)
      // The first call's speech goes back to its pools once the call has closed.
      await sleep(300)
      const second = await call(url, question)
      rows.push({ startMs, first, second })
      console.log(
        `run ${run + 1}: start ${startMs.toFixed(0)} ms; greeting audio ${first.greetingAudioMs.toFixed(1)} / ${second.greetingAudioMs.toFixed(1)} ms; transcript ${first.transcriptMs.toFixed(1)} / ${second.transcriptMs.toFixed(1)} ms (first / second call)`
      )
    } finally {
      child.kill()
      await once(child, 'exit')
    }
  }

  const cell = (values: number[]) => median(values).toFixed(1).padStart(11)
  console.log(`\nFresh demo server, offline speech, medians of ${rows.length} runs, ms:\n`)
  console.log(`| ${'measure'.padEnd(42)} | first call | second call |`)
  console.log(`| ${'-'.repeat(42)} | ---------: | ----------: |`)
  console.log(
    `| ${'params sent → first greeting audio'.padEnd(42)} | ${cell(rows.map((r) => r.first.greetingAudioMs)).slice(1)} | ${cell(rows.map((r) => r.second.greetingAudioMs))} |`
  )
  console.log(
    `| ${'StopSpeaking → user Message (transcript)'.padEnd(42)} | ${cell(rows.map((r) => r.first.transcriptMs)).slice(1)} | ${cell(rows.map((r) => r.second.transcriptMs))} |`
  )
  console.log(`\nprocess start → URL printed: ${median(rows.map((r) => r.startMs)).toFixed(0)} ms`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
