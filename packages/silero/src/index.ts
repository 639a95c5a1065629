export { SileroVAD } from './SileroVAD.js'
export type { SileroVADOptions } from './options.js'
export { RnnoiseDenoiser } from './denoise/index.js'
