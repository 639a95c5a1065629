/** The model sent nothing within `firstTokenTimeoutMs` (or a fallback child within `firstChunkTimeoutMs`). */
export class FirstTokenTimeoutError extends Error {
  override readonly name = 'FirstTokenTimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`No response from the model within ${timeoutMs} ms`)
  }
}

/** Every agent of a FallbackAgent failed the same turn. `errors` holds each one's error, in order. */
export class AllAgentsFailedError extends AggregateError {
  override readonly name = 'AllAgentsFailedError'
  constructor(errors: unknown[]) {
    super(errors, `All ${errors.length} agents failed to answer`)
  }
}

/** The HTTP status of an error from a provider SDK (`status` or `statusCode`), if it has one. */
export function errorStatus(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown }
  if (typeof status === 'number') return status
  if (typeof statusCode === 'number') return statusCode
  return undefined
}

/**
 * Whether an attempt that failed before writing any text should be tried again by the shared retry.
 *
 * - An error may decide for itself with a boolean `retryable` property.
 * - A first-token timeout, a connection reset or a broken stream (no HTTP status): yes.
 * - An error with an HTTP status: no. The provider SDKs already retry 408/409/429/5xx responses
 *   themselves (set their `maxRetries` from the agent's `maxRetry`), and 4xx errors never succeed
 *   on a second try; retrying here as well would multiply the attempts.
 */
export function isRetryableError(error: unknown): boolean {
  if (error && typeof error === 'object' && 'retryable' in error) {
    return Boolean((error as { retryable: unknown }).retryable)
  }
  if (error instanceof FirstTokenTimeoutError) return true
  return errorStatus(error) === undefined
}

/**
 * How long a failed model call asks to wait before the next try, in ms: its `retryAfterMs` when a
 * provider set one (e.g. from an HTTP `retry-after` header), else 0.
 */
export function errorRetryAfterMs(error: unknown): number {
  if (!error || typeof error !== 'object') return 0
  const { retryAfterMs } = error as { retryAfterMs?: unknown }
  return typeof retryAfterMs === 'number' && retryAfterMs > 0 ? retryAfterMs : 0
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))
}
