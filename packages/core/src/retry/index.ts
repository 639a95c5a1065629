export {
  FirstTokenTimeoutError,
  AllAgentsFailedError,
  errorStatus,
  errorMessage,
  isRetryableError,
} from './errors.js'
export { firstWithin } from './first-token-timeout.js'
export { backoffDelayMs, waitUnlessAborted } from './backoff.js'
