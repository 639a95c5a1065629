export { TTS } from './TTS.js'
export type { TTSEvents } from './TTS.js'
