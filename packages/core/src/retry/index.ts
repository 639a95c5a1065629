export { FirstTokenTimeoutError, AllAgentsFailedError } from './errors.js'
export { ProviderError } from './ProviderError.js'
export type { ProviderErrorDetails } from './ProviderError.js'
