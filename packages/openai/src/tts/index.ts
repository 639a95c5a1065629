export { OpenaiTTS } from './OpenaiTTS.js'
export type { OpenaiTTSOptions } from './types.js'
export type { OpenaiTTSError } from './to-tts-error.js'
