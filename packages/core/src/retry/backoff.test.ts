import { describe, expect, it } from 'vitest'
import { backoffDelayMs, retryDelayMs } from './backoff.js'

describe('retry delays', () => {
  it('backs off 200 ms doubling up to 2 s, within ±20 % jitter', () => {
    for (const [retry, base] of [
      [0, 200],
      [1, 400],
      [3, 1600],
      [6, 2000],
    ] as const) {
      const delay = backoffDelayMs(retry)
      expect(delay).toBeGreaterThanOrEqual(base * 0.8)
      expect(delay).toBeLessThanOrEqual(base * 1.2)
    }
  })

  it('waits what the error asks when that is longer than the backoff, never less than the backoff', () => {
    expect(retryDelayMs(Object.assign(new Error('429'), { retryAfterMs: 3000 }), 0)).toBe(3000)
    expect(
      retryDelayMs(Object.assign(new Error('429'), { retryAfterMs: 10 }), 0)
    ).toBeGreaterThanOrEqual(160)
    expect(retryDelayMs(new Error('reset'), 0)).toBeLessThanOrEqual(240)
    expect(retryDelayMs(Object.assign(new Error('429'), { retryAfterMs: 60_000 }), 0)).toBe(5000)
  })
})
