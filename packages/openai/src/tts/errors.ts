import { ProviderError, type ProviderErrorDetails } from '@openmic/core'
import { APIError } from 'openai'

/**
 * A failure of OpenaiTTS: `OpenaiTTS: HTTP 401 Incorrect API key provided` for an HTTP error (with
 * its `status` and `headers` kept, so retry and fallback logic can read them), or
 * `OpenaiTTS: <message>` for a connection or a broken body; the SDK's error is the `cause`.
 */
export class OpenaiTTSError extends ProviderError {
  override readonly name = 'OpenaiTTSError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('OpenaiTTS', message, details)
  }
}

/** What a failed sentence throws: an {@link OpenaiTTSError} with the SDK's error as its cause. */
export function toTTSError(error: unknown): OpenaiTTSError {
  if (error instanceof OpenaiTTSError) return error
  if (error instanceof APIError && error.status !== undefined) {
    const details = (error.error ?? {}) as { message?: unknown }
    const reason =
      typeof details.message === 'string'
        ? details.message
        : error.message.replace(/^\d+\s*/, '') || 'no body'
    return new OpenaiTTSError(`HTTP ${error.status} ${reason}`, {
      status: error.status,
      headers: error.headers,
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  const { retryable } = (error ?? {}) as { retryable?: unknown }
  return new OpenaiTTSError(message, {
    cause: error,
    retryable: typeof retryable === 'boolean' ? retryable : undefined,
  })
}
