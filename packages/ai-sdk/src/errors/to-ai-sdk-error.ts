import { APICallError } from 'ai'
import { AiSdkStreamError } from './AiSdkStreamError.js'

/**
 * An AI SDK `APICallError` as AiSdkAgent fails with it: the SDK's error, plus the fields every
 * openmic provider's HTTP errors carry.
 */
export type AiSdkHttpError = APICallError & {
  /** The HTTP status, as other providers' errors name it (the SDK's `statusCode`). */
  status: number | undefined
  /** The response headers (the SDK's `responseHeaders`), where core reads `retry-after`. */
  headers: Record<string, string> | undefined
  /** The SDK's own verdict, `isRetryable`, which core's retry follows. */
  retryable: boolean
}

/**
 * The error a failed model call fails with. An `APICallError` keeps its identity and gains
 * `status`, `headers` and `retryable` (the SDK's `isRetryable`: HTTP 408, 409, 429 and 5xx and
 * connection failures, as core's rule, plus what the provider knows of errors sent inside a
 * stream, e.g. an exhausted quota is final). A failure that is not an `Error` becomes an
 * {@link AiSdkStreamError}. Other errors pass unchanged.
 */
export function toAiSdkError(error: unknown): unknown {
  if (APICallError.isInstance(error)) {
    return Object.assign(error, {
      status: error.statusCode,
      headers: error.responseHeaders,
      retryable: error.isRetryable,
    }) as AiSdkHttpError
  }
  if (error instanceof Error) return error
  if (error && typeof error === 'object') {
    const { message, code, statusCode, isRetryable } = error as Record<string, unknown>
    const text = typeof message === 'string' ? message : JSON.stringify(error)
    return new AiSdkStreamError(text, {
      code: typeof code === 'string' ? code : undefined,
      status: typeof statusCode === 'number' ? statusCode : undefined,
      retryable: typeof isRetryable === 'boolean' ? isRetryable : undefined,
      cause: error,
    })
  }
  return new AiSdkStreamError(String(error ?? 'The model stream failed'))
}
