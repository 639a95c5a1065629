import { MistralError } from '@mistralai/mistralai/models/errors'

/** HTTP statuses worth another try: timeouts, conflicts, rate limits and server errors. */
const RETRYABLE_STATUS = new Set([408, 409, 429])

/** Longest `retry-after` honoured before a retry: a voice user is waiting. */
export const MAX_RETRY_AFTER_MS = 5_000

/** A Mistral HTTP error as MistralAgent throws it: the SDK's error, plus these fields. */
export type MistralHttpError = MistralError & {
  /** The HTTP status (the SDK names it `statusCode`; `status` as in other providers' errors). */
  status: number
  /** Whether core's retry may try again (408, 409, 429, 5xx). */
  retryable: boolean
  /** How long the response asks to wait before a retry (see {@link retryAfterMs}); core waits it. */
  retryAfterMs: number
}

/**
 * Marks a Mistral HTTP error for core's shared retry: keeps the SDK's error (its `statusCode`,
 * `body`, `headers`), adds `status`, `retryable` and `retryAfterMs`. Other errors pass unchanged.
 */
export function toAgentError(error: unknown): unknown {
  if (!(error instanceof MistralError)) return error
  const status = error.statusCode
  return Object.assign(error, {
    status,
    retryable: RETRYABLE_STATUS.has(status) || status >= 500,
    retryAfterMs: retryAfterMs(error),
  }) as MistralHttpError
}

/** How long an HTTP error asks to wait (`retry-after-ms`, `retry-after` in seconds or as a date), capped. */
export function retryAfterMs(error: unknown): number {
  if (!(error instanceof MistralError)) return 0
  const ms = Number(error.headers.get('retry-after-ms'))
  if (ms > 0) return Math.min(ms, MAX_RETRY_AFTER_MS)
  const value = error.headers.get('retry-after')
  if (!value) return 0
  const seconds = Number(value)
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now()
  return wait > 0 ? Math.min(wait, MAX_RETRY_AFTER_MS) : 0
}
