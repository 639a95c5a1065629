export type { Denoiser } from './Denoiser.js'
