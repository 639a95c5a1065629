/**
 * The API reported a failure inside a stream that had started (a Responses `error` or
 * `response.failed` event, or an `error` object in a chat chunk). It carries the API's error `code`
 * and is not retried: the request was accepted and the model failed on it.
 */
export class OpenaiStreamError extends Error {
  override readonly name = 'OpenaiStreamError'
  /** Never retried by openmic's shared retry. */
  readonly retryable = false
  /** The API's error code, e.g. `insufficient_quota` or `server_error`. */
  readonly code: string | undefined
  /** The API's error type, when it sent one. */
  readonly type: string | undefined

  constructor(message: string, details: { code?: unknown; type?: unknown; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = typeof details.code === 'string' ? details.code : undefined
    this.type = typeof details.type === 'string' ? details.type : undefined
  }
}
