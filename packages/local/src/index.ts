export * from './agent/index.js'
export { LocalSetupError } from './errors.js'
export type { LocalSetupErrorDetails } from './errors.js'
// Speech-to-text
export { LocalSTT } from './stt/LocalSTT.js'
export type { LocalSTTOptions } from './stt/options.js'
export { LocalSTTError } from './stt/errors.js'
// Text-to-speech
export { LocalTTS } from './tts/LocalTTS.js'
export type { LocalTTSOptions } from './tts/options.js'
export { LocalTTSError } from './tts/errors.js'
export type { FliteVoice } from './native/flite.js'
export { DEFAULT_MODEL_DIR } from './native/pocketsphinx.js'
export { STT_PACKAGES, TTS_PACKAGES } from './native/packages.js'
