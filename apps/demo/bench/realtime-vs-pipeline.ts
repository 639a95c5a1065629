// Voice to voice through the server, a speech-to-speech model against the pipeline, in one run:
// a MicdropServer on a real WebSocket on 127.0.0.1 per path, a client that streams 300 ms of
// speech at real-time pace then sends StopSpeaking, and times the first answer audio frame. The
// providers are scripted, so what the framework adds shows as the time beyond their script:
//   pipeline:          MockSTT transcript 150 ms after the end of the input, MockAgent first
//                      token 300 ms later, MockTTS first audio 200 ms after its first text (650 ms)
//   realtime (mock):   core's MockRealtime, transcript 150 ms and first audio 300 ms after the
//                      commit (the response is asked for at the commit: 300 ms)
//   realtime (openai): OpenaiRealtime over the fake Realtime API on loopback, the same script
//                      (300 ms), through its wire: JSON and base64 events, 16 ↔ 24 kHz resampling
// The paths take turns, one turn each, the first of them rotating. The fake and the client run
// in the benchmark's process: their work is counted in the overhead too.
// Run: pnpm build && pnpm --filter @openmic/demo bench:realtime [turns per path, default 60]
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  MockAgent,
  MockRealtime,
  MockSTT,
  MockTTS,
  RealtimeAgent,
  type Agent,
  type STT,
  type TTS,
} from '@openmic/core'
import { OpenaiRealtime } from '@openmic/openai'
import { MicdropServer } from '@openmic/server'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '@openmic/testing'
import WebSocket, { WebSocketServer } from 'ws'

const TURNS = Number(process.argv[2] ?? 60)
const STT_MS = 150
const LLM_MS = 300
const TTS_MS = 200
const REALTIME_FIRST_AUDIO_MS = 300
const SPEECH_MS = 300
const CHUNK = Buffer.alloc(3200, 5) // 100 ms of PCM16 16 kHz
const ANSWER = 'Sure, the table is booked for eight.'

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

type Voice = { agent: Agent; stt: STT; tts: TTS } | { realtime: RealtimeAgent }

interface Path {
  name: string
  /** What its script alone takes from the end of the input to the first audio. */
  idealMs: number
  voice: () => Voice
  /** Scripts the fake for the next turn, if there is one. */
  next?: () => void
  times: number[]
}

/** One call on its own server: each turn returns the ms from StopSpeaking to the first audio. */
async function openCall(path: Path) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(wss, 'listening')
  wss.on('connection', (socket) => new MicdropServer(socket, path.voice()))
  const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`)
  let onAudio: (() => void) | undefined
  let onAnswered: (() => void) | undefined
  socket.on('message', (data, isBinary) => {
    if (isBinary) return onAudio?.()
    if (data.toString().startsWith('Message {"role":"assistant"')) onAnswered?.()
  })
  await once(socket, 'open')
  await sleep(200) // the opening SkipAnswer
  return {
    async turn(): Promise<number> {
      path.next?.()
      socket.send('StartSpeaking')
      for (let sent = 0; sent < SPEECH_MS; sent += 100) {
        socket.send(CHUNK)
        await sleep(100)
      }
      const firstAudio = new Promise<number>((resolve) => {
        onAudio = () => {
          onAudio = undefined
          resolve(performance.now())
        }
      })
      const answered = new Promise<void>((resolve) => (onAnswered = resolve))
      const stoppedAt = performance.now()
      socket.send('StopSpeaking')
      const at = await firstAudio
      await answered
      await sleep(300)
      return at - stoppedAt
    },
    close: () => {
      socket.close()
      wss.close()
    },
  }
}

async function main() {
  const fake: FakeOpenaiRealtime = await createFakeOpenaiRealtime({ apiKey: 'sk-bench' })
  const paths: Path[] = [
    {
      name: `pipeline (STT ${STT_MS} / LLM ${LLM_MS} / TTS ${TTS_MS} ms)`,
      idealMs: STT_MS + LLM_MS + TTS_MS,
      voice: () => ({
        agent: new MockAgent({ firstWordDelayMs: LLM_MS, answers: [ANSWER] }),
        stt: new MockSTT({ utterances: [{ transcripts: 'A table for two', delayMs: STT_MS }] }),
        tts: new MockTTS({ firstAudioDelayMs: TTS_MS }),
      }),
      times: [],
    },
    {
      name: `realtime, MockRealtime (first audio ${REALTIME_FIRST_AUDIO_MS} ms)`,
      idealMs: REALTIME_FIRST_AUDIO_MS,
      voice: () => ({
        realtime: new RealtimeAgent({
          systemPrompt: 'Bench.',
          model: new MockRealtime({
            transcripts: ['A table for two'],
            transcriptDelayMs: STT_MS,
            firstAudioDelayMs: REALTIME_FIRST_AUDIO_MS,
            answers: [ANSWER],
          }),
        }),
      }),
      times: [],
    },
    {
      name: `realtime, OpenaiRealtime + fake API (first audio ${REALTIME_FIRST_AUDIO_MS} ms)`,
      idealMs: REALTIME_FIRST_AUDIO_MS,
      voice: () => ({
        realtime: new RealtimeAgent({
          systemPrompt: 'Bench.',
          model: new OpenaiRealtime({ apiKey: 'sk-bench', baseURL: fake.baseURL }),
        }),
      }),
      next: () => {
        fake.replyTranscript('A table for two', { delayMs: STT_MS })
        fake.replyResponse(ANSWER, { firstAudioMs: REALTIME_FIRST_AUDIO_MS })
      },
      times: [],
    },
  ]
  const calls = new Map<Path, Awaited<ReturnType<typeof openCall>>>()
  for (const path of paths) calls.set(path, await openCall(path))
  for (let i = 0; i < TURNS; i++) {
    const order = [...paths.slice(i % paths.length), ...paths.slice(0, i % paths.length)]
    for (const path of order) path.times.push(await calls.get(path)!.turn())
  }
  for (const call of calls.values()) call.close()
  await fake.close()

  const ms = (value: number) => `${value.toFixed(0)} ms`
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`
  console.log(`\n${TURNS} turns per path, StopSpeaking sent → first answer audio received:\n`)
  console.log(row(['path', 'scripted', 'p50', 'p99', 'added p50', 'added p99']))
  console.log(row(['---', '---:', '---:', '---:', '---:', '---:']))
  for (const { name, idealMs, times } of paths) {
    const p50 = percentile(times, 50)
    const p99 = percentile(times, 99)
    console.log(row([name, ms(idealMs), ms(p50), ms(p99), ms(p50 - idealMs), ms(p99 - idealMs)]))
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
