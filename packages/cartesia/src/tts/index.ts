export { CartesiaTTS } from './CartesiaTTS.js'
export { CartesiaTTSError } from './errors.js'
export { CARTESIA_VERSION, DEFAULT_CARTESIA_TTS_MODEL } from './types.js'
export type { CartesiaTTSOptions } from './types.js'
