import { describe, expect, it } from 'vitest'
import { DEFAULT_RECONNECT_OPTIONS, reconnectDelayMs } from './reconnect.js'

describe('reconnectDelayMs', () => {
  const middle = () => 0.5
  it('doubles from delayMs up to maxDelayMs', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((n) =>
      reconnectDelayMs(n, DEFAULT_RECONNECT_OPTIONS, middle)
    )
    expect(delays).toEqual([500, 1000, 2000, 4000, 5000, 5000])
  })

  it('jitters by ±20 %', () => {
    expect(reconnectDelayMs(1, DEFAULT_RECONNECT_OPTIONS, () => 0)).toBe(400)
    expect(reconnectDelayMs(1, DEFAULT_RECONNECT_OPTIONS, () => 0.999999)).toBe(600)
  })
})
