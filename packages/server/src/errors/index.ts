export { MicdropError, MicdropErrorCode } from './MicdropError.js'
export { handleError } from './handleError.js'
