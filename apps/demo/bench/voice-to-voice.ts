// Voice-to-voice latency of the demo with offline speech (pocketsphinx + flite) and the local agent,
// over a real WebSocket on 127.0.0.1: the client streams a spoken question at real-time pace, sends
// StopSpeaking, and times the first reply audio frame. Prints p50 / p90 over 20 turns, with the
// server's own per-turn metrics (STT finalize, agent first text, TTS first audio) beside them.
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import WebSocket from 'ws'
import { buildApp } from '../src/server/app.js'
import { loadConfig } from '../src/server/config.js'
import { speakPcm } from '../test/speech.js'

const TURNS = Number(process.env.TURNS ?? 20)
const CHUNK_BYTES = 3200 // 100 ms of PCM16 16 kHz mono

async function speak(text: string): Promise<Buffer> {
  const silence = Buffer.alloc(CHUNK_BYTES * 3)
  return Buffer.concat([silence, await speakPcm(text), silence])
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

async function main() {
  const app = await buildApp(loadConfig({ PORT: '0', OPENMIC_AGENT: 'local' }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  const url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/call`
  const question = await speak('What time is it?')

  const socket = new WebSocket(url)
  await new Promise((resolve) => socket.once('open', resolve))
  socket.send(JSON.stringify({ token: 'demo' }))

  let onAudio: (() => void) | undefined
  let onAnswered: (() => void) | undefined
  let onMetrics: ((metrics: MicdropTurnMetrics) => void) | undefined
  socket.on('message', (data, isBinary) => {
    if (isBinary) return onAudio?.()
    const text = data.toString()
    if (text.startsWith('Message {"role":"assistant"')) onAnswered?.()
    if (text.startsWith('Metrics ')) onMetrics?.(JSON.parse(text.slice('Metrics '.length)))
  })
  // the greeting
  await new Promise<void>((resolve) => (onAnswered = resolve))
  await sleep(500)

  const rows: Array<{ e2e: number; metrics: MicdropTurnMetrics }> = []
  for (let turn = 0; turn < TURNS; turn++) {
    socket.send('StartSpeaking')
    for (let offset = 0; offset < question.length; offset += CHUNK_BYTES) {
      socket.send(question.subarray(offset, offset + CHUNK_BYTES))
      await sleep(100)
    }
    const firstAudio = new Promise<number>(
      (resolve) => (onAudio = () => resolve(performance.now()))
    )
    const answered = new Promise<void>((resolve) => (onAnswered = resolve))
    const metrics = new Promise<MicdropTurnMetrics>((resolve) => (onMetrics = resolve))
    const stoppedAt = performance.now()
    socket.send('StopSpeaking')
    const e2e = (await firstAudio) - stoppedAt
    onAudio = undefined
    await answered
    rows.push({ e2e, metrics: await metrics })
    await sleep(300)
  }
  socket.close()
  await app.close()

  const column = (name: string, values: number[]) =>
    `| ${name.padEnd(44)} | ${percentile(values, 50).toFixed(1).padStart(8)} | ${percentile(values, 90).toFixed(1).padStart(8)} |`
  const metric = (key: keyof MicdropTurnMetrics) =>
    rows.map((row) => row.metrics[key]).filter((v): v is number => v !== undefined)
  console.log(
    `\nVoice to voice, offline (pocketsphinx + flite + local agent), ${rows.length} turns, ms:\n`
  )
  console.log(`| ${'measure'.padEnd(44)} | ${'p50'.padStart(8)} | ${'p90'.padStart(8)} |`)
  console.log(`| ${'-'.repeat(44)} | ${'-'.repeat(8)} | ${'-'.repeat(8)} |`)
  console.log(
    column(
      'StopSpeaking → first reply audio (client)',
      rows.map((row) => row.e2e)
    )
  )
  console.log(column('StopSpeaking → first audio sent (server)', metric('endToEndMs')))
  console.log(column('STT finalize (StopSpeaking → transcript)', metric('sttMs')))
  console.log(column('agent: answer requested → first text', metric('agentFirstTextMs')))
  console.log(column('TTS: first text → first audio', metric('ttsFirstAudioMs')))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
