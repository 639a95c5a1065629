export { LocalTTS } from './LocalTTS.js'
export type { LocalTTSOptions } from './LocalTTS.js'
