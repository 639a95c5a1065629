export {
  FirstTokenTimeoutError,
  AllAgentsFailedError,
  errorStatus,
  errorMessage,
  isRetryableError,
} from './errors.js'
export { backoffDelayMs, waitUnlessAborted } from './backoff.js'
