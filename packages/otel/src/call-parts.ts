import type { CallServer } from '@openmic/server'

/** A provider of the call, as its spans and metrics name it. */
export interface PartName {
  /** Its class name (`OpenaiAgent`, `GladiaSTT`...). */
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
    agent: { provider: server.agent.constructor.name, model: models.agent },
    stt: { provider: server.stt.constructor.name, model: models.stt },
    tts: { provider: server.tts.constructor.name, model: models.tts },
  }
}
