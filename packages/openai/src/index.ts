export { OpenaiAgent } from './OpenaiAgent.js'
export { DEFAULT_OPENAI_MODEL } from './types.js'
export type {
  OpenaiAgentOptions,
  OpenaiChatSettings,
  OpenaiConnectionOptions,
  OpenaiResponsesSettings,
} from './types.js'
export { OpenaiStreamError } from './errors/OpenaiStreamError.js'

// Speech-to-text (OpenaiSTT)
export { OpenaiSTT } from './stt/OpenaiSTT.js'
export type { OpenaiSTTOptions } from './stt/options.js'
export { OpenaiSTTError } from './stt/errors.js'
export type { OpenaiErrorDetails } from './stt/errors.js'
// Text-to-speech
export { OpenaiTTS } from './tts/OpenaiTTS.js'
export type { OpenaiTTSOptions } from './tts/options.js'
export { OpenaiTTSError } from './tts/errors.js'
// Speech-to-speech (OpenaiRealtime, for core's RealtimeAgent)
export { OpenaiRealtime } from './realtime/OpenaiRealtime.js'
export type { OpenaiRealtimeModelId, OpenaiRealtimeOptions } from './realtime/options.js'
export { OpenaiRealtimeError } from './realtime/errors.js'
