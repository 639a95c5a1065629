import { ProviderError, type ProviderErrorDetails } from '@openmic/core'
import { isRetryableStreamCode } from '@openmic/core/provider'

/** What an {@link AiSdkStreamError} carries: core's options object of every provider error. */
export type AiSdkStreamErrorDetails = ProviderErrorDetails

/**
 * The model's stream reported a failure that is not an `Error`: some providers hand over the
 * API's error object as it came (e.g. `{ message, type, code }` in an OpenAI-compatible chat
 * stream, or `{ message, code, statusCode, isRetryable }` from the OpenAI Responses provider).
 * The message starts with `AiSdkAgent:`.
 *
 * openmic retries it (before any text was spoken) when the provider says so (`retryable`, its
 * `isRetryable`), else only when the fault is on the server's side: `server_error`,
 * `rate_limit_exceeded` or `overloaded`.
 */
export class AiSdkStreamError extends ProviderError {
  override readonly name = 'AiSdkStreamError'

  constructor(message: string, details: AiSdkStreamErrorDetails = {}) {
    super('AiSdkAgent', message, {
      ...details,
      retryable: details.retryable ?? isRetryableStreamCode(details.code),
    })
  }
}
