import { setTimeout as sleep } from 'node:timers/promises'
import { errorRetryAfterMs } from './errors.js'

/**
 * Delay before retry number `retry` (0 for the first retry): 200 ms doubling up to 2 s, with ±20 %
 * jitter. Short on purpose: a voice user is waiting.
 */
export function backoffDelayMs(retry: number): number {
  const base = Math.min(200 * 2 ** retry, 2000)
  return Math.round(base * (0.8 + Math.random() * 0.4))
}

/**
 * Delay before retrying after `error` (retry number `retry`): the backoff, or longer when the error
 * asks for it (see {@link errorRetryAfterMs}, which caps what it asks).
 */
export function retryDelayMs(error: unknown, retry: number): number {
  return Math.max(backoffDelayMs(retry), errorRetryAfterMs(error))
}

/** Waits `ms`, resolving `false` at once if `signal` aborts (true when the full delay passed). */
export async function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false
  try {
    await sleep(ms, undefined, { signal })
    return true
  } catch {
    return false
  }
}
