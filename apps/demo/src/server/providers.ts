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
import type { DemoConfig } from './config.js'

const SYSTEM_PROMPT =
  'You are the openmic demo assistant, speaking with a user by voice. Answer in one or two short ' +
  'sentences, without markdown or lists. When the user says goodbye, end the call.'

/** Builds the agent the configuration names. Cloud SDKs are loaded only when used. */
export async function createAgent(config: DemoConfig): Promise<Agent> {
  switch (config.agent) {
    case 'openai': {
      const { OpenaiAgent } = await import('@openmic/openai')
      const { apiKey, baseURL, model } = config.openai
      return new OpenaiAgent({
        systemPrompt: SYSTEM_PROMPT,
        autoEndCall: true,
        apiKey,
        baseURL,
        model,
      })
    }
    case 'mistral': {
      const { MistralAgent } = await import('@openmic/mistral')
      return new MistralAgent({ systemPrompt: SYSTEM_PROMPT, autoEndCall: true, ...config.mistral })
    }
    case 'ai-sdk': {
      const { AiSdkAgent } = await import('@openmic/ai-sdk')
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
      const { baseURL, apiKey, model } = config.aiSdk
      const provider = createOpenAICompatible({ name: 'demo', baseURL: baseURL!, apiKey })
      return new AiSdkAgent({
        systemPrompt: SYSTEM_PROMPT,
        autoEndCall: true,
        model: provider.chatModel(model!),
      })
    }
    case 'local': {
      const { LocalAgent } = await import('@openmic/local')
      return new LocalAgent()
    }
    case 'mock':
      // Says which turn it answers and what it heard: a resumed call shows it kept its history.
      return new MockAgent({
        systemPrompt: SYSTEM_PROMPT,
        wordDelayMs: 40,
        answers: (conversation) => {
          const users = conversation.filter((item) => item.role === 'user')
          return `Turn ${users.length}: you said ${users.at(-1)?.content ?? 'nothing'}.`
        },
      })
  }
}

/**
 * Builds the speech-to-speech voice `OPENMIC_REALTIME` names: a `RealtimeAgent` (the call's agent,
 * STT and TTS in one model session) on OpenAI's Realtime API, or on core's MockRealtime.
 */
export async function createRealtime(config: DemoConfig): Promise<RealtimeAgent> {
  const options = { systemPrompt: SYSTEM_PROMPT, autoEndCall: true } as const
  if (config.realtime === 'openai') {
    const { OpenaiRealtime } = await import('@openmic/openai')
    const { apiKey, baseURL, realtimeModel, voice } = config.openai
    const model = new OpenaiRealtime({ apiKey, baseURL, model: realtimeModel, voice })
    return new RealtimeAgent({ model, ...options })
  }
  // As the mock agent: it says which turn it answers and what it heard
  const model = new MockRealtime({
    msPerChar: 40,
    answers: (conversation) => {
      const users = conversation.filter((item) => item.role === 'user')
      return `Turn ${users.length}: you said ${users.at(-1)?.text ?? 'nothing'}.`
    },
  })
  return new RealtimeAgent({ model, ...options })
}

/** Builds speech-to-text: a cloud provider's, offline pocketsphinx, or the mock. */
export async function createSTT(config: DemoConfig): Promise<STT> {
  switch (config.stt) {
    case 'elevenlabs': {
      const { ElevenLabsSTT } = await import('@openmic/elevenlabs')
      const { apiKey, baseURL } = config.elevenlabs
      return new ElevenLabsSTT({ apiKey, baseURL })
    }
    case 'openai': {
      const { OpenaiSTT } = await import('@openmic/openai')
      return new OpenaiSTT({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL })
    }
    case 'mistral': {
      const { MistralSTT } = await import('@openmic/mistral')
      return new MistralSTT({ apiKey: config.mistral.apiKey, serverURL: config.mistral.serverURL })
    }
    case 'gladia': {
      const { GladiaSTT } = await import('@openmic/gladia')
      return new GladiaSTT({ apiKey: config.gladia.apiKey, baseURL: config.gladia.baseURL })
    }
    case 'gradium': {
      const { GradiumSTT } = await import('@openmic/gradium')
      const { apiKey, region, baseURL } = config.gradium
      return new GradiumSTT({ apiKey, region, baseURL })
    }
    case 'cartesia': {
      const { CartesiaSTT } = await import('@openmic/cartesia')
      return new CartesiaSTT({ apiKey: config.cartesia.apiKey, baseURL: config.cartesia.baseURL })
    }
    case 'local': {
      const { LocalSTT } = await import('@openmic/local')
      return new LocalSTT()
    }
    case 'mock':
      return new MockSTT()
  }
}

/** Builds text-to-speech: a cloud provider's, offline flite, or the mock tone generator. */
export async function createTTS(config: DemoConfig): Promise<TTS> {
  switch (config.tts) {
    case 'elevenlabs': {
      const { ElevenLabsTTS } = await import('@openmic/elevenlabs')
      return new ElevenLabsTTS(config.elevenlabs)
    }
    case 'openai': {
      const { OpenaiTTS } = await import('@openmic/openai')
      return new OpenaiTTS({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL })
    }
    case 'mistral': {
      const { MistralTTS } = await import('@openmic/mistral')
      return new MistralTTS({ apiKey: config.mistral.apiKey, serverURL: config.mistral.serverURL })
    }
    case 'gradium': {
      const { GradiumTTS } = await import('@openmic/gradium')
      return new GradiumTTS(config.gradium)
    }
    case 'cartesia': {
      const { CartesiaTTS } = await import('@openmic/cartesia')
      const { apiKey, baseURL, voiceId } = config.cartesia
      return new CartesiaTTS({ apiKey, baseURL, voiceId })
    }
    case 'local': {
      const { LocalTTS } = await import('@openmic/local')
      return new LocalTTS()
    }
    case 'mock':
      return new MockTTS()
  }
}

/** What {@link warmUpProviders} loads, by when a call needs it; each settles once loaded. */
export interface ProvidersWarmUp {
  /** Needed the moment a call connects: the voice its greeting is spoken with. */
  greeting: Promise<void>
  /** Needed once the caller has spoken: the speech-to-text model and the agent's first answer. */
  firstTurn: Promise<void>
}

/**
 * Starts loading what the configured offline providers would otherwise load during the first
 * call: `@openmic/local`, flite's voice and pocketsphinx's model in their worker threads, what
 * the local agent's first answer loads, and Silero's model when phone calls are on, so that the first caller is greeted and heard as fast as
 * the next ones. A call started before they have loaded shares them. Cloud providers connect per
 * call: nothing to load.
 */
export function warmUpProviders(config: DemoConfig): ProvidersWarmUp {
  const local = () => import('@openmic/local')
  const greeting = Promise.all([
    config.tts === 'local' && local().then(({ LocalTTS }) => LocalTTS.warmUp()),
    // A phone call's VAD hears the caller from the first frame
    config.twilio.authToken &&
      import('@openmic/silero').then(({ SileroVAD }) => SileroVAD.warmUp()),
  ]).then(() => {})
  const firstTurn = Promise.all([
    config.stt === 'local' && local().then(({ LocalSTT }) => LocalSTT.warmUp()),
    config.agent === 'local' && local().then(({ LocalAgent }) => LocalAgent.warmUp()),
  ]).then(() => {})
  // The caller awaits one before the other: a failure of the other is reported when it is
  // awaited, not as an unhandled rejection in between.
  greeting.catch(() => {})
  firstTurn.catch(() => {})
  return { greeting, firstTurn }
}
