export { RnnoiseDenoiser } from './RnnoiseDenoiser.js'
