export { OpenaiTTS } from './OpenaiTTS.js'
export type { OpenaiTTSOptions } from './types.js'
export { OpenaiTTSError } from './errors.js'
