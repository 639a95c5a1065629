import { ProviderError } from '@openmic/core'
import { isRetryableStreamCode } from '@openmic/core/provider'
import type { OpenaiErrorDetails } from '../stt/errors.js'

/**
 * The API reported a failure inside a stream that had started (a Responses `error` or
 * `response.failed` event, or an `error` object in a chat chunk), with the API's error `code`.
 * The message starts with `OpenaiAgent:`.
 *
 * openmic retries it (before any text was spoken) only when the fault is on the server's side:
 * `server_error`, `rate_limit_exceeded` or `overloaded` (as its `code`, else its `type`). Any
 * other code (`insufficient_quota`, `invalid_prompt`, a content filter...) would fail the same way
 * again.
 */
export class OpenaiStreamError extends ProviderError {
  override readonly name = 'OpenaiStreamError'
  /** The API's error type, when it sent one. */
  readonly type: string | undefined

  constructor(message: string, details: OpenaiErrorDetails = {}) {
    super('OpenaiAgent', message, {
      ...details,
      retryable: details.retryable ?? isRetryableStreamCode(details.code ?? details.type),
    })
    this.type = details.type
  }
}

/** A field of the API's error object as text (`code` and `type` are strings, or null). */
export function textField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
