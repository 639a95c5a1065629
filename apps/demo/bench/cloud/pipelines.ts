// Every shipped pipeline, as its users put it together: the providers' own classes talking to
// openmic's fake servers (@openmic/testing) on 127.0.0.1, whose latencies are scripted (STT final
// 150 ms after the commit, model first token 300 ms, TTS first byte 200 ms); core's mocks scripted
// the same way; and the offline pipeline of @openmic/local, whose latency is its own compute.
// Each pipeline on fakes also has its raw chain (bench/cloud/raw-chain.ts): the same turn with
// the providers' own clients (bench/cloud/raw/), on the same fakes.
import { createOpenAI } from '@ai-sdk/openai'
import { AiSdkAgent } from '@openmic/ai-sdk'
import { CartesiaSTT, CartesiaTTS } from '@openmic/cartesia'
import { MockAgent, MockSTT, MockTTS, type Agent, type STT, type TTS } from '@openmic/core'
import { ElevenLabsSTT, ElevenLabsTTS } from '@openmic/elevenlabs'
import { GladiaSTT } from '@openmic/gladia'
import { GradiumSTT, GradiumTTS } from '@openmic/gradium'
import { LocalAgent, LocalSTT, LocalTTS } from '@openmic/local'
import { MistralAgent, MistralSTT, MistralTTS } from '@openmic/mistral'
import { OpenaiAgent, OpenaiSTT, OpenaiTTS } from '@openmic/openai'
import { float32Sine } from '@openmic/testing'
import type { FakeHost, RemoteFake } from './remote-fakes.js'
import { speakPcm } from '../../test/speech.js'
import { RawChain, type RawModel } from './raw-chain.js'
import { aiSdkModel } from './raw/ai-sdk.js'
import { cartesiaSTT, cartesiaTTS } from './raw/cartesia.js'
import { elevenLabsSTT, elevenLabsTTS } from './raw/elevenlabs.js'
import { gladiaLiveSTT } from './raw/gladia.js'
import { gradiumSTT, gradiumTTS } from './raw/gradium.js'
import { mistralChatModel, mistralRealtimeSTT, mistralSpeechTTS } from './raw/mistral.js'
import { openaiRealtimeSTT, openaiResponsesModel, openaiSpeechTTS } from './raw/openai.js'

export const STT_MS = 150
export const MODEL_MS = 300
export const TTS_MS = 200
const QUESTION = 'What time is it?'
const ANSWER = 'It is noon. Anything else?'
const SYSTEM_PROMPT = 'Be brief.'
/** What the user says to a fake STT: 300 ms of audio (the fakes do not listen to it). */
const FAKE_SPEECH = Buffer.alloc(9600, 1)

export interface Pipeline {
  /** The id PIPELINES selects it by. */
  id: string
  name: string
  /** The providers' scripted latency of a turn (0: their own compute, measured by the server). */
  scriptedMs: { stt: number; agent: number; tts: number }
  /** PCM16 16 kHz of the user's question. */
  speech: Buffer
  /** The agent, STT and TTS of one call. */
  make(): { agent: Agent; stt: STT; tts: TTS }
  /**
   * Scripts the providers' next turn (its fakes are the host's, closed with it). `sentences`: how
   * many of the answer's sentences will be asked for speech, one request each where the TTS makes
   * one per sentence (the pipeline asks for both, the raw chain for the first).
   */
  script(sentences?: 1 | 2): void
  /** The same turn with the providers' own clients, on the same fakes (none without fakes). */
  raw?(): RawChain
}

const SCRIPTED = { stt: STT_MS, agent: MODEL_MS, tts: TTS_MS }

function replyAnswer(chat: RemoteFake) {
  chat.replyParts([
    { type: 'delay', ms: MODEL_MS },
    { type: 'text', delta: ANSWER },
  ])
}

/** The fake OpenAI speech's audio for the answer's sentences, at real-time pace. */
function replySpeech(speech: RemoteFake, sentences = 2) {
  const sentence = { type: 'audio', firstByteMs: TTS_MS, chunkDelayMs: 'realtime' }
  for (let i = 0; i < sentences; i++) speech.enqueue(sentence)
}

async function mocks(_host: FakeHost): Promise<Pipeline> {
  return {
    id: 'mocks',
    name: 'core mocks (reference)',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: new MockAgent({ answers: [ANSWER], firstWordDelayMs: MODEL_MS }),
      stt: new MockSTT({ utterances: [{ transcripts: QUESTION, delayMs: STT_MS }] }),
      tts: new MockTTS({ firstAudioDelayMs: TTS_MS }),
    }),
    script: () => {},
  }
}

/**
 * OpenAI's speech around an agent on the fake OpenAI server: OpenaiAgent, or the AI SDK's; the raw
 * chain's model is the agent's SDK.
 */
function openaiSpeech(
  id: string,
  name: string,
  agent: (baseURL: string) => Agent,
  rawModel: (baseURL: string) => RawModel
) {
  return async (host: FakeHost): Promise<Pipeline> => {
    const chat = await host.create('createFakeOpenAI')
    const realtime = await host.create('createFakeOpenaiRealtime')
    const speech = await host.create('createFakeOpenaiSpeech')
    return {
      id,
      name,
      scriptedMs: SCRIPTED,
      speech: FAKE_SPEECH,
      make: () => ({
        agent: agent(chat.baseURL),
        stt: new OpenaiSTT({ apiKey: 'k', baseURL: realtime.baseURL }),
        tts: new OpenaiTTS({ apiKey: 'k', baseURL: speech.baseURL }),
      }),
      script: (sentences) => {
        realtime.replyTranscript(QUESTION, { delayMs: STT_MS })
        replyAnswer(chat)
        replySpeech(speech, sentences)
      },
      raw: () =>
        new RawChain(
          {
            stt: openaiRealtimeSTT(realtime.baseURL),
            model: rawModel(chat.baseURL),
            tts: openaiSpeechTTS(speech.baseURL),
          },
          SYSTEM_PROMPT
        ),
    }
  }
}

const openaiAgent = (baseURL: string) =>
  new OpenaiAgent({ apiKey: 'k', baseURL, systemPrompt: SYSTEM_PROMPT })

async function mistral(host: FakeHost): Promise<Pipeline> {
  const chat = await host.create('createFakeMistral')
  const realtime = await host.create('createFakeMistralRealtime')
  const speech = await host.create('createFakeMistralSpeech')
  const sentence = float32Sine(24_000) // one second of speech per sentence
  return {
    id: 'mistral',
    name: 'MistralSTT + MistralAgent + MistralTTS',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: new MistralAgent({
        apiKey: 'k',
        serverURL: chat.serverURL,
        systemPrompt: SYSTEM_PROMPT,
      }),
      stt: new MistralSTT({ apiKey: 'k', serverURL: realtime.serverURL }),
      tts: new MistralTTS({ apiKey: 'k', serverURL: speech.serverURL }),
    }),
    script: (sentences = 2) => {
      realtime.replyTranscript(QUESTION, { delayMs: STT_MS, deltas: [] })
      replyAnswer(chat)
      for (let i = 0; i < sentences; i++) {
        speech.replySpeech(sentence, { firstEventDelayMs: TTS_MS, chunks: 10, chunkDelayMs: 100 })
      }
    },
    raw: () =>
      new RawChain(
        {
          stt: mistralRealtimeSTT(realtime.serverURL),
          model: mistralChatModel(chat.serverURL),
          tts: mistralSpeechTTS(speech.serverURL),
        },
        SYSTEM_PROMPT
      ),
  }
}

/** Gladia transcribes; OpenAI's agent and speech (on their fakes) answer. */
async function gladia(host: FakeHost): Promise<Pipeline> {
  const live = await host.create('createFakeGladiaLive')
  const chat = await host.create('createFakeOpenAI')
  const speech = await host.create('createFakeOpenaiSpeech')
  return {
    id: 'gladia',
    name: 'GladiaSTT + OpenaiAgent + OpenaiTTS',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: openaiAgent(chat.baseURL),
      stt: new GladiaSTT({ apiKey: 'k', baseURL: live.baseURL }),
      tts: new OpenaiTTS({ apiKey: 'k', baseURL: speech.baseURL }),
    }),
    script: (sentences) => {
      // The final comes STT_MS after stop_recording, then end_recording.
      live.replyTranscript(QUESTION, { delayMs: STT_MS, partials: [] })
      replyAnswer(chat)
      replySpeech(speech, sentences)
    },
    raw: () =>
      new RawChain(
        {
          stt: gladiaLiveSTT(live.baseURL),
          model: openaiResponsesModel(chat.baseURL),
          tts: openaiSpeechTTS(speech.baseURL),
        },
        SYSTEM_PROMPT
      ),
  }
}

/** Gradium's speech with OpenaiAgent (Gradium has no model), its 100 ms `trailingTextMs` off. */
async function gradium(host: FakeHost): Promise<Pipeline> {
  const chat = await host.create('createFakeOpenAI')
  const asr = await host.create('createFakeGradiumSTT')
  const speech = await host.create('createFakeGradiumTTS', {
    msPerWord: 250,
    wordDelayMs: 'realtime',
  })
  return {
    id: 'gradium',
    name: 'GradiumSTT (trailingTextMs 0) + OpenaiAgent + GradiumTTS',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: openaiAgent(chat.baseURL),
      stt: new GradiumSTT({ apiKey: 'k', baseURL: asr.baseURL, trailingTextMs: 0 }),
      tts: new GradiumTTS({ apiKey: 'k', baseURL: speech.baseURL, voiceId: 'v' }),
    }),
    script: () => {
      asr.replyTranscript(QUESTION, { delayMs: STT_MS })
      replyAnswer(chat)
      speech.reply({ kind: 'speech', firstAudioDelayMs: TTS_MS })
    },
    raw: () =>
      new RawChain(
        {
          stt: gradiumSTT(asr.baseURL),
          model: openaiResponsesModel(chat.baseURL),
          tts: gradiumTTS(speech.baseURL),
        },
        SYSTEM_PROMPT
      ),
  }
}

async function elevenlabs(host: FakeHost): Promise<Pipeline> {
  const chat = await host.create('createFakeOpenAI')
  const scribe = await host.create('createFakeElevenLabsSTT')
  // 60 ms of speech a character, sent at 3x real time.
  const voice = { firstAudioDelayMs: TTS_MS, msPerChar: 60, charsPerMessage: 8, chunkDelayMs: 160 }
  const speech = await host.create('createFakeElevenLabsTTS', {
    defaultReply: { type: 'speech', ...voice },
  })
  return {
    id: 'elevenlabs',
    name: 'ElevenLabsSTT + OpenaiAgent + ElevenLabsTTS',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: openaiAgent(chat.baseURL),
      stt: new ElevenLabsSTT({ apiKey: 'k', baseURL: scribe.baseURL }),
      tts: new ElevenLabsTTS({ apiKey: 'k', voiceId: 'v', baseURL: speech.baseURL }),
    }),
    script: () => {
      scribe.replyTranscript(QUESTION, { delayMs: STT_MS })
      replyAnswer(chat)
    },
    raw: () =>
      new RawChain(
        {
          stt: elevenLabsSTT(scribe.baseURL),
          model: openaiResponsesModel(chat.baseURL),
          tts: elevenLabsTTS(speech.baseURL),
        },
        SYSTEM_PROMPT
      ),
  }
}

/** Cartesia has no LLM: its speech around OpenaiAgent, as a Cartesia user would pair them. */
async function cartesia(host: FakeHost): Promise<Pipeline> {
  const chat = await host.create('createFakeOpenAI')
  const stt = await host.create('createFakeCartesiaSTT')
  // Cartesia's audio at real-time pace after its first byte (40 ms chunks, 40 ms apart).
  const tts = await host.create('createFakeCartesiaTTS', {
    firstAudioDelayMs: TTS_MS,
    chunkDelayMs: 40,
  })
  return {
    id: 'cartesia',
    name: 'CartesiaSTT + OpenaiAgent + CartesiaTTS',
    scriptedMs: SCRIPTED,
    speech: FAKE_SPEECH,
    make: () => ({
      agent: openaiAgent(chat.baseURL),
      stt: new CartesiaSTT({ apiKey: 'k', baseURL: stt.baseURL }),
      tts: new CartesiaTTS({ apiKey: 'k', baseURL: tts.baseURL, voiceId: 'v' }),
    }),
    script: () => {
      stt.replyTranscript(QUESTION, { delayMs: STT_MS })
      replyAnswer(chat)
    },
    raw: () =>
      new RawChain(
        {
          stt: cartesiaSTT(stt.baseURL),
          model: openaiResponsesModel(chat.baseURL),
          tts: cartesiaTTS(tts.baseURL),
        },
        SYSTEM_PROMPT
      ),
  }
}

/** pocketsphinx, the local agent (the time tool) and flite: no script, their own compute. */
async function local(_host: FakeHost): Promise<Pipeline> {
  const silence = Buffer.alloc(3200 * 2)
  const speech = Buffer.concat([silence, await speakPcm(QUESTION), silence])
  return {
    id: 'local',
    name: 'LocalSTT + LocalAgent + LocalTTS',
    scriptedMs: { stt: 0, agent: 0, tts: 0 },
    speech,
    make: () => ({ agent: new LocalAgent(), stt: new LocalSTT(), tts: new LocalTTS() }),
    script: () => {},
  }
}

export const pipelines: Record<string, (host: FakeHost) => Promise<Pipeline>> = {
  mocks,
  openai: openaiSpeech(
    'openai',
    'OpenaiSTT + OpenaiAgent + OpenaiTTS',
    openaiAgent,
    openaiResponsesModel
  ),
  mistral,
  elevenlabs,
  cartesia,
  gladia,
  gradium,
  'ai-sdk': openaiSpeech(
    'ai-sdk',
    'OpenaiSTT + AiSdkAgent + OpenaiTTS',
    (baseURL) =>
      new AiSdkAgent({
        model: createOpenAI({ apiKey: 'k', baseURL }).responses('gpt-4.1-mini'),
        systemPrompt: SYSTEM_PROMPT,
      }),
    aiSdkModel
  ),
  local,
}
