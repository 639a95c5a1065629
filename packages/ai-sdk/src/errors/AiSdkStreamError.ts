/**
 * Error codes a provider sends inside a stream when the failure is its own, not the request's:
 * the same request may well succeed on the next try.
 */
const RETRYABLE_CODES = new Set(['server_error', 'rate_limit_exceeded', 'overloaded'])

/** What a provider told of a failure inside its stream. */
export interface AiSdkStreamErrorDetails {
  /** The API's error code. */
  code?: unknown
  /** The HTTP status the provider gave the failure, if it gave one. */
  status?: unknown
  /** The provider's own verdict on retrying, if it gave one. */
  retryable?: unknown
  cause?: unknown
}

/**
 * The model's stream reported a failure that is not an `Error`: some providers hand over the
 * API's error object as it came (e.g. `{ message, type, code }` in an OpenAI-compatible chat
 * stream, or `{ message, code, statusCode, isRetryable }` from the OpenAI Responses provider).
 *
 * openmic retries it (before any text was spoken) when the provider says so (`isRetryable`), else
 * only when the fault is on the server's side: `server_error`, `rate_limit_exceeded` or
 * `overloaded`.
 */
export class AiSdkStreamError extends Error {
  override readonly name = 'AiSdkStreamError'
  /** The API's error code, e.g. `server_error`, when it sent one. */
  readonly code: string | undefined
  /** The HTTP status the provider gave the failure, when it gave one. */
  readonly status: number | undefined
  /** Whether openmic may try the request again (see the class description). */
  readonly retryable: boolean

  constructor(message: string, details: AiSdkStreamErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = typeof details.code === 'string' ? details.code : undefined
    this.status = typeof details.status === 'number' ? details.status : undefined
    this.retryable =
      typeof details.retryable === 'boolean'
        ? details.retryable
        : RETRYABLE_CODES.has(this.code ?? '')
  }
}
