// End of speech → first answer audio at the client, through a real MicdropServer and a real
// WebSocket client on 127.0.0.1, with the cloud providers' own classes talking to openmic's fake
// servers whose latencies are scripted: STT final 150 ms after the commit, model first token
// 300 ms, TTS first byte 200 ms. What is left once those 650 ms are taken out is the framework's
// own time. The same turn with core's mocks scripted to the same latencies stands beside it, as
// the reference: the server's path without any provider client.
// Usage: pnpm bench:cloud   (TURNS=40 by default; PIPELINES=mocks,gladia runs only those)
import type { AddressInfo } from 'node:net'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { MockAgent, MockSTT, MockTTS, type Agent, type STT, type TTS } from '@openmic/core'
import { GladiaSTT } from '@openmic/gladia'
import { GradiumSTT, GradiumTTS } from '@openmic/gradium'
import { ElevenLabsSTT, ElevenLabsTTS } from '@openmic/elevenlabs'
import { MistralAgent, MistralSTT, MistralTTS } from '@openmic/mistral'
import { OpenaiAgent, OpenaiSTT, OpenaiTTS } from '@openmic/openai'
import { MicdropServer } from '@openmic/server'
import {
  createFakeGladiaLive,
  createFakeGradiumSTT,
  createFakeGradiumTTS,
  createFakeElevenLabsSTT,
  createFakeElevenLabsTTS,
  createFakeMistral,
  createFakeMistralRealtime,
  createFakeMistralSpeech,
  createFakeOpenAI,
  createFakeOpenaiRealtime,
  createFakeOpenaiSpeech,
  float32Sine,
} from '@openmic/testing'
import WebSocket, { WebSocketServer } from 'ws'

const TURNS = Number(process.env.TURNS ?? 40)
const STT_MS = 150
const MODEL_MS = 300
const TTS_MS = 200
const SCRIPTED_MS = STT_MS + MODEL_MS + TTS_MS
const CHUNK = Buffer.alloc(3200, 1) // 100 ms of PCM16 16 kHz
const ANSWER = 'It is noon. Anything else?'

interface Pipeline {
  name: string
  /** The agent, STT and TTS of one call. */
  make(): { agent: Agent; stt: STT; tts: TTS }
  /** Scripts the providers' next turn. */
  script(): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function mocks(): Promise<Pipeline> {
  return {
    name: 'core mocks (reference)',
    make: () => ({
      agent: new MockAgent({ answers: [ANSWER], firstWordDelayMs: MODEL_MS }),
      stt: new MockSTT({ utterances: [{ transcripts: 'What time is it?', delayMs: STT_MS }] }),
      tts: new MockTTS({ firstAudioDelayMs: TTS_MS }),
    }),
    script: () => {},
    close: async () => {},
  }
}

async function openai(): Promise<Pipeline> {
  const chat = await createFakeOpenAI()
  const realtime = await createFakeOpenaiRealtime()
  const speech = await createFakeOpenaiSpeech()
  return {
    name: 'OpenaiSTT + OpenaiAgent + OpenaiTTS',
    make: () => ({
      agent: new OpenaiAgent({ apiKey: 'k', baseURL: chat.baseURL, systemPrompt: 'Be brief.' }),
      stt: new OpenaiSTT({ apiKey: 'k', baseURL: realtime.baseURL }),
      tts: new OpenaiTTS({ apiKey: 'k', baseURL: speech.baseURL }),
    }),
    script: () => {
      realtime.replyTranscript('What time is it?', { delayMs: STT_MS })
      chat.replyParts([
        { type: 'delay', ms: MODEL_MS },
        { type: 'text', delta: ANSWER },
      ])
      speech.enqueue(
        { type: 'audio', firstByteMs: TTS_MS, chunkDelayMs: 'realtime' },
        { type: 'audio', firstByteMs: TTS_MS, chunkDelayMs: 'realtime' }
      )
    },
    close: async () => {
      await Promise.all([chat.close(), realtime.close(), speech.close()])
    },
  }
}

interface Turn {
  /** End of speech → first audio at the client, minus the scripted latencies. */
  framework: number
  /** The server's own measures of each stage, minus that stage's scripted latency. */
  stt: number
  agent: number
  tts: number
}

async function measure(pipeline: Pipeline): Promise<Turn[]> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on(
    'connection',
    (socket) => new MicdropServer(socket, { ...pipeline.make(), sendMetrics: true })
  )
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
  const socket = new WebSocket(url)
  await new Promise((resolve) => socket.once('open', resolve))
  let onAudio: (() => void) | undefined
  let onAnswer: (() => void) | undefined
  let onMetrics: ((metrics: MicdropTurnMetrics) => void) | undefined
  socket.on('message', (data, isBinary) => {
    if (isBinary) return onAudio?.()
    const text = data.toString()
    if (text.startsWith('Message {"role":"assistant"')) onAnswer?.()
    if (text.startsWith('Metrics ')) onMetrics?.(JSON.parse(text.slice('Metrics '.length)))
  })
  await sleep(300) // the STT's socket opens at the start of the call
  const turns: Turn[] = []
  for (let turn = 0; turn < TURNS; turn++) {
    pipeline.script()
    socket.send('StartSpeaking')
    for (let i = 0; i < 5; i++) {
      socket.send(CHUNK)
      await sleep(20)
    }
    const firstAudio = new Promise<number>((resolve) => {
      onAudio = () => {
        onAudio = undefined
        resolve(performance.now())
      }
    })
    const answered = new Promise<void>((resolve) => (onAnswer = resolve))
    const metrics = new Promise<MicdropTurnMetrics>((resolve) => (onMetrics = resolve))
    const stoppedAt = performance.now()
    socket.send('StopSpeaking')
    const framework = (await firstAudio) - stoppedAt - SCRIPTED_MS
    const { sttMs = NaN, agentFirstTextMs = NaN, ttsFirstAudioMs = NaN } = await metrics
    turns.push({
      framework,
      stt: sttMs - STT_MS,
      agent: agentFirstTextMs - MODEL_MS,
      tts: ttsFirstAudioMs - TTS_MS,
    })
    await answered
    await sleep(1500) // the answer's audio plays out
  }
  socket.close()
  wss.close()
  return turns
}

async function mistral(): Promise<Pipeline> {
  const chat = await createFakeMistral()
  const realtime = await createFakeMistralRealtime()
  const speech = await createFakeMistralSpeech()
  const sentence = float32Sine(24_000) // one second of speech per sentence
  return {
    name: 'MistralSTT + MistralAgent + MistralTTS',
    make: () => ({
      agent: new MistralAgent({
        apiKey: 'k',
        serverURL: chat.serverURL,
        systemPrompt: 'Be brief.',
      }),
      stt: new MistralSTT({ apiKey: 'k', serverURL: realtime.serverURL }),
      tts: new MistralTTS({ apiKey: 'k', serverURL: speech.serverURL }),
    }),
    script: () => {
      realtime.replyTranscript('What time is it?', { delayMs: STT_MS, deltas: [] })
      chat.replyParts([
        { type: 'delay', ms: MODEL_MS },
        { type: 'text', delta: ANSWER },
      ])
      speech.replySpeech(sentence, { firstEventDelayMs: TTS_MS, chunks: 10, chunkDelayMs: 100 })
      speech.replySpeech(sentence, { firstEventDelayMs: TTS_MS, chunks: 10, chunkDelayMs: 100 })
    },
    close: async () => {
      await Promise.all([chat.close(), realtime.close(), speech.close()])
    },
  }
}

/** Gladia transcribes; OpenAI's agent and speech (on their fakes) answer. */
async function gladia(): Promise<Pipeline> {
  const live = await createFakeGladiaLive()
  const chat = await createFakeOpenAI()
  const speech = await createFakeOpenaiSpeech()
  return {
    name: 'GladiaSTT + OpenaiAgent + OpenaiTTS',
    make: () => ({
      agent: new OpenaiAgent({ apiKey: 'k', baseURL: chat.baseURL, systemPrompt: 'Be brief.' }),
      stt: new GladiaSTT({ apiKey: 'k', baseURL: live.baseURL }),
      tts: new OpenaiTTS({ apiKey: 'k', baseURL: speech.baseURL }),
    }),
    script: () => {
      // The final comes STT_MS after stop_recording, then end_recording.
      live.replyTranscript('What time is it?', { delayMs: STT_MS, partials: [] })
      chat.replyParts([
        { type: 'delay', ms: MODEL_MS },
        { type: 'text', delta: ANSWER },
      ])
      speech.enqueue(
        { type: 'audio', firstByteMs: TTS_MS, chunkDelayMs: 'realtime' },
        { type: 'audio', firstByteMs: TTS_MS, chunkDelayMs: 'realtime' }
      )
    },
    close: async () => {
      await Promise.all([live.close(), chat.close(), speech.close()])
    },
  }
}

/**
 * Gradium's speech with OpenaiAgent (Gradium has no model). `trailingTextMs` is GradiumSTT's wait
 * for text after `flushed` (default 100 ms): the row with 0 shows the framework without it.
 */
function gradium(trailingTextMs?: number) {
  return async (): Promise<Pipeline> => {
    const chat = await createFakeOpenAI()
    const asr = await createFakeGradiumSTT()
    const speech = await createFakeGradiumTTS({ msPerWord: 250, wordDelayMs: 'realtime' })
    return {
      name:
        'GradiumSTT + OpenaiAgent + GradiumTTS' +
        (trailingTextMs === undefined ? '' : ` (trailingTextMs ${trailingTextMs})`),
      make: () => ({
        agent: new OpenaiAgent({ apiKey: 'k', baseURL: chat.baseURL, systemPrompt: 'Be brief.' }),
        stt: new GradiumSTT({ apiKey: 'k', baseURL: asr.baseURL, trailingTextMs }),
        tts: new GradiumTTS({ apiKey: 'k', baseURL: speech.baseURL, voiceId: 'v' }),
      }),
      script: () => {
        asr.replyTranscript('What time is it?', { delayMs: STT_MS })
        chat.replyParts([
          { type: 'delay', ms: MODEL_MS },
          { type: 'text', delta: ANSWER },
        ])
        speech.reply({ kind: 'speech', firstAudioDelayMs: TTS_MS })
      },
      close: async () => {
        await Promise.all([chat.close(), asr.close(), speech.close()])
      },
    }
  }
}

async function elevenlabs(): Promise<Pipeline> {
  const chat = await createFakeOpenAI()
  const scribe = await createFakeElevenLabsSTT()
  // 60 ms of speech a character, sent at 3x real time.
  const voice = { firstAudioDelayMs: TTS_MS, msPerChar: 60, charsPerMessage: 8, chunkDelayMs: 160 }
  const speech = await createFakeElevenLabsTTS({ defaultReply: { type: 'speech', ...voice } })
  return {
    name: 'ElevenLabsSTT + OpenaiAgent + ElevenLabsTTS',
    make: () => ({
      agent: new OpenaiAgent({ apiKey: 'k', baseURL: chat.baseURL, systemPrompt: 'Be brief.' }),
      stt: new ElevenLabsSTT({ apiKey: 'k', baseURL: scribe.baseURL }),
      tts: new ElevenLabsTTS({ apiKey: 'k', voiceId: 'v', baseURL: speech.baseURL }),
    }),
    script: () => {
      scribe.replyTranscript('What time is it?', { delayMs: STT_MS })
      chat.replyParts([
        { type: 'delay', ms: MODEL_MS },
        { type: 'text', delta: ANSWER },
      ])
    },
    close: async () => {
      await Promise.all([chat.close(), scribe.close(), speech.close()])
    },
  }
}

const rows: string[] = []
const cell = (values: number[]) =>
  `${quantile(values, 0.5).toFixed(1).padStart(6)} | ${quantile(values, 0.99).toFixed(1).padStart(6)}`
const only = process.env.PIPELINES?.split(',')
const pipelines = {
  mocks,
  openai,
  mistral,
  gradium: gradium(),
  gradium0: gradium(0),
  elevenlabs,
  gladia,
}
for (const [id, make] of Object.entries(pipelines)) {
  if (only && !only.includes(id)) continue
  const pipeline = await make()
  const turns = await measure(pipeline)
  await pipeline.close()
  const column = (key: keyof Turn) => cell(turns.map((turn) => turn[key]))
  rows.push(
    `| ${pipeline.name.padEnd(38)} | ${column('framework')} | ${column('stt')} | ${column('agent')} | ${column('tts')} |`
  )
}
console.log(
  `End of speech → first audio at the client, minus ${SCRIPTED_MS} ms of scripted provider ` +
    `latency, and each stage as the server measured it minus its own (${TURNS} turns each; ms, p50 | p99):\n`
)
console.log(
  `| pipeline                               | total p50 | p99 | STT p50 | p99 | agent p50 | p99 | TTS p50 | p99 |`
)
console.log(
  `| -------------------------------------- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`
)
for (const row of rows) console.log(row)
