export { STT } from './STT.js'
export type { STTEvents } from './STT.js'
