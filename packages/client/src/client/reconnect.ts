/** How the client reconnects after a recoverable close. */
export interface MicdropReconnectOptions {
  /** Attempts before giving up with a `Connection` error (default 5; 0 disables reconnection). */
  maxAttempts?: number
  /** Delay before the first attempt, in ms (default 500); doubles at each attempt. */
  delayMs?: number
  /** Ceiling of the delay, in ms (default 5000). */
  maxDelayMs?: number
  /** How long a connection may take to open, in ms, before it counts as failed (default 5000). */
  connectionTimeoutMs?: number
}

export const DEFAULT_RECONNECT_OPTIONS: Required<MicdropReconnectOptions> = {
  maxAttempts: 5,
  delayMs: 500,
  maxDelayMs: 5000,
  connectionTimeoutMs: 5000,
}

/**
 * Delay before reconnection attempt `attempt` (1 for the first): `delayMs` doubling up to
 * `maxDelayMs`, with ±20 % jitter so that clients dropped together do not come back together.
 * `random` is injectable for tests.
 */
export function reconnectDelayMs(
  attempt: number,
  options: Required<MicdropReconnectOptions> = DEFAULT_RECONNECT_OPTIONS,
  random: () => number = Math.random
): number {
  const base = Math.min(options.delayMs * 2 ** Math.max(0, attempt - 1), options.maxDelayMs)
  return Math.round(base * (0.8 + random() * 0.4))
}
