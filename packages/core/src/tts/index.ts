export { TTS } from './TTS.js'
export type { TTSEvents, TTSWord } from './TTS.js'
