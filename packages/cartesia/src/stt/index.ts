export { CartesiaSTT } from './CartesiaSTT.js'
export { CartesiaSTTError } from './errors.js'
export { DEFAULT_CARTESIA_STT_MODEL } from './types.js'
export type { CartesiaSTTOptions } from './types.js'
