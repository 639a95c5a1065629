import { APIError } from 'openai'

/** A failure of OpenaiTTS, naming the provider and, for an HTTP error, its status. */
export interface OpenaiTTSError extends Error {
  /** HTTP status of the response, when the API answered with an error. */
  status?: number
  /** Headers of that response (`retry-after`...). */
  headers?: Headers
}

/**
 * What a failed sentence throws: `OpenaiTTS: HTTP 401 Incorrect API key provided` for an HTTP
 * error (with its `status` and `headers` kept, so retry and fallback logic can read them), or
 * `OpenaiTTS: <message>` for a connection or a broken body; the SDK's error is the `cause`.
 */
export function toTTSError(error: unknown): OpenaiTTSError {
  if (error instanceof APIError && error.status !== undefined) {
    const details = (error.error ?? {}) as { message?: unknown }
    const reason =
      typeof details.message === 'string'
        ? details.message
        : error.message.replace(/^\d+\s*/, '') || 'no body'
    return Object.assign(new Error(`OpenaiTTS: HTTP ${error.status} ${reason}`, { cause: error }), {
      status: error.status,
      headers: error.headers,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  const failure = new Error(`OpenaiTTS: ${message}`, { cause: error })
  const { retryable } = (error ?? {}) as { retryable?: unknown }
  return typeof retryable === 'boolean' ? Object.assign(failure, { retryable }) : failure
}
