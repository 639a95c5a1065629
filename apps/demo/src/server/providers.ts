import { MockSTT, MockTTS, type Agent, type STT, type TTS } from '@openmic/core'
import type { DemoConfig } from './config.js'

const SYSTEM_PROMPT =
  'You are the openmic demo assistant, speaking with a user by voice. Answer in one or two short ' +
  'sentences, without markdown or lists. When the user says goodbye, end the call.'

/** Builds the agent the configuration names. Cloud SDKs are loaded only when used. */
export async function createAgent(config: DemoConfig): Promise<Agent> {
  switch (config.agent) {
    case 'openai': {
      const { OpenaiAgent } = await import('@openmic/openai')
      return new OpenaiAgent({ systemPrompt: SYSTEM_PROMPT, autoEndCall: true, ...config.openai })
    }
    case 'mistral': {
      const { MistralAgent } = await import('@openmic/mistral')
      return new MistralAgent({ systemPrompt: SYSTEM_PROMPT, autoEndCall: true, ...config.mistral })
    }
    case 'local': {
      const { LocalAgent } = await import('@openmic/local')
      return new LocalAgent()
    }
  }
}

/** Builds speech-to-text: offline pocketsphinx, or the mock for machines without it. */
export async function createSTT(config: DemoConfig): Promise<STT> {
  if (config.stt === 'mock') return new MockSTT()
  const { LocalSTT } = await import('@openmic/local')
  return new LocalSTT()
}

/** Builds text-to-speech: offline flite, or the mock tone generator. */
export async function createTTS(config: DemoConfig): Promise<TTS> {
  if (config.tts === 'mock') return new MockTTS()
  const { LocalTTS } = await import('@openmic/local')
  return new LocalTTS()
}
