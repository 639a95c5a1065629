export { SileroVAD } from './SileroVAD.js'
export type { SileroVADOptions } from './options.js'
