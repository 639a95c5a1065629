export { VAD } from './VAD.js'
export type { VADEvents, VADSpeechEvent } from './VAD.js'
export { EnergyVAD, type EnergyVADOptions } from './EnergyVAD.js'
