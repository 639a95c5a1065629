// Text-to-speech
export { ElevenLabsTTS } from './tts/ElevenLabsTTS.js'
export type {
  ElevenLabsTTSOptions,
  ElevenLabsPcmFormat,
  ElevenLabsVoiceSettings,
} from './tts/options.js'
export { ElevenLabsTTSError } from './tts/errors.js'
// Speech-to-text
export { ElevenLabsSTT } from './stt/ElevenLabsSTT.js'
export type { ElevenLabsSTTOptions } from './stt/options.js'
export { ElevenLabsSTTError } from './stt/errors.js'
