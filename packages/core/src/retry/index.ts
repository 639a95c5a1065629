export {
  FirstTokenTimeoutError,
  AllAgentsFailedError,
  errorStatus,
  errorMessage,
  isRetryableError,
  errorRetryAfterMs,
} from './errors.js'
export { backoffDelayMs, retryDelayMs, waitUnlessAborted } from './backoff.js'
