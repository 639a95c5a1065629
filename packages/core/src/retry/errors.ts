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

/**
 * Longest wait before a retry, whatever `retry-after` a provider asks for: a voice user is
 * waiting, and past a few seconds a fallback agent serves them better than a retry.
 */
export const MAX_RETRY_AFTER_MS = 5_000

/** HTTP statuses worth another try besides 5xx: timeout, conflict, rate limit. */
const RETRYABLE_STATUSES = new Set([408, 409, 429])

/** The HTTP status of an error from a provider SDK (`status` or `statusCode`), if it has one. */
export function errorStatus(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown }
  if (typeof status === 'number') return status
  if (typeof statusCode === 'number') return statusCode
  return undefined
}

/**
 * Whether a model call that failed before writing any text may be tried again. Core's step loop is
 * the only place that retries; providers turn their SDK's retries off and let this decide.
 *
 * - An error may decide for itself with a boolean `retryable` property.
 * - A first-token timeout, a refused or reset connection, a broken stream (no HTTP status): yes.
 * - HTTP 408, 409, 429 and 5xx: yes. Any other HTTP status (400, 401, 403, 404, 422...): no, it
 *   would fail the same way again.
 */
export function isRetryableError(error: unknown): boolean {
  if (error && typeof error === 'object' && 'retryable' in error) {
    return Boolean((error as { retryable: unknown }).retryable)
  }
  if (error instanceof FirstTokenTimeoutError) return true
  return isRetryableStatus(errorStatus(error))
}

/**
 * Error codes a provider sends inside a stream when the failure is its own, not the request's:
 * the same request may well succeed on the next try (OpenAI's guidance for `server_error`).
 */
const RETRYABLE_STREAM_CODES = new Set(['server_error', 'rate_limit_exceeded', 'overloaded'])

/**
 * Whether a model stream that reported this error code inside it (OpenAI's and OpenAI-compatible
 * APIs' `server_error`, `rate_limit_exceeded`, `overloaded`) may succeed if tried again. Any
 * other code (`insufficient_quota`, `invalid_prompt`, a content filter...) would fail again.
 */
export function isRetryableStreamCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_STREAM_CODES.has(code)
}

/**
 * Whether a request that failed with this HTTP status may succeed if tried again: no status (a
 * refused or reset connection, a timeout), 408, 409, 429 and 5xx.
 */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || RETRYABLE_STATUSES.has(status) || status >= 500
}

/**
 * How long a failed model call asks to wait before the next try, in ms (0: no wish), capped at
 * {@link MAX_RETRY_AFTER_MS}. Read from the error's `retryAfterMs` when a provider set one, else
 * from the HTTP response headers the SDK kept on the error (`headers`: `retry-after-ms`, or
 * `retry-after` in seconds or as an HTTP date).
 */
export function errorRetryAfterMs(error: unknown): number {
  if (!error || typeof error !== 'object') return 0
  const { retryAfterMs, headers } = error as { retryAfterMs?: unknown; headers?: unknown }
  const wait = typeof retryAfterMs === 'number' ? retryAfterMs : retryAfterFromHeaders(headers)
  return wait > 0 ? Math.min(wait, MAX_RETRY_AFTER_MS) : 0
}

/**
 * The wait an HTTP response asks for, in ms (0 when it asks none): `retry-after-ms`, else
 * `retry-after` in seconds or as an HTTP date. Takes a `Headers` or a plain header record.
 */
export function retryAfterFromHeaders(headers: unknown, now = Date.now()): number {
  const header = (name: string): string | undefined => {
    if (!headers || typeof headers !== 'object') return undefined
    if (typeof (headers as Headers).get === 'function') {
      return (headers as Headers).get(name) ?? undefined
    }
    const value = (headers as Record<string, unknown>)[name]
    return typeof value === 'string' ? value : undefined
  }
  const ms = Number(header('retry-after-ms'))
  if (ms > 0) return ms
  const value = header('retry-after')?.trim()
  if (!value) return 0
  const seconds = Number(value)
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now
  return wait > 0 ? wait : 0
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))
}
