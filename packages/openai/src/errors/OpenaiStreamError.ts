/**
 * Error codes the API sends inside a stream when the failure is its own, not the request's: the
 * same request may well succeed on the next try (OpenAI's guidance for `server_error` is to retry).
 */
const RETRYABLE_CODES = new Set(['server_error', 'rate_limit_exceeded', 'overloaded'])

/**
 * The API reported a failure inside a stream that had started (a Responses `error` or
 * `response.failed` event, or an `error` object in a chat chunk), with the API's error `code`.
 *
 * openmic retries it (before any text was spoken) only when the fault is on the server's side:
 * `server_error`, `rate_limit_exceeded` or `overloaded`. Any other code (`insufficient_quota`,
 * `invalid_prompt`, a content filter...) would fail the same way again.
 */
export class OpenaiStreamError extends Error {
  override readonly name = 'OpenaiStreamError'
  /** The API's error code, e.g. `insufficient_quota` or `server_error`. */
  readonly code: string | undefined
  /** The API's error type, when it sent one. */
  readonly type: string | undefined
  /** Whether openmic may try the request again (see the class description). */
  readonly retryable: boolean

  constructor(message: string, details: { code?: unknown; type?: unknown; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = typeof details.code === 'string' ? details.code : undefined
    this.type = typeof details.type === 'string' ? details.type : undefined
    this.retryable = RETRYABLE_CODES.has(this.code ?? this.type ?? '')
  }
}
