export { VAD } from './VAD.js'
export type { VADEvents, VADSpeechEvent } from './VAD.js'
