// Text-to-speech
export { CartesiaTTS } from './tts/CartesiaTTS.js'
export { CartesiaTTSError } from './tts/errors.js'
export { CARTESIA_VERSION, DEFAULT_CARTESIA_TTS_MODEL } from './tts/options.js'
export type { CartesiaTTSOptions } from './tts/options.js'
// Speech-to-text
export { CartesiaSTT } from './stt/CartesiaSTT.js'
export { CartesiaSTTError } from './stt/errors.js'
export { DEFAULT_CARTESIA_STT_MODEL } from './stt/options.js'
export type { CartesiaSTTOptions } from './stt/options.js'
