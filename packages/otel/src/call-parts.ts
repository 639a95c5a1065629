import type { CallServer } from '@openmic/server'

/** The parts of a call whose failures and fallbacks are counted. */
export type Part = 'agent' | 'stt' | 'tts'

/** A provider of the call, as its spans and metrics name it. */
export interface PartName {
  /** Its `providerName` (`openai`, `gladia`...), when the call opened. */
  provider: string
  model?: string
}

/** The call's agent, STT and TTS. */
export interface CallParts {
  agent: PartName
  stt: PartName
  tts: PartName
}

/** The models each part uses, for the attributes (openmic's providers do not all expose them). */
export interface CallModels {
  agent?: string
  stt?: string
  tts?: string
}

export function callParts(server: CallServer, models: CallModels = {}): CallParts {
  return {
    agent: { provider: server.agent.providerName, model: models.agent },
    stt: { provider: server.stt.providerName, model: models.stt },
    tts: { provider: server.tts.providerName, model: models.tts },
  }
}
