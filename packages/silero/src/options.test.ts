import { describe, expect, it } from 'vitest'
import { resolveOptions } from './options.js'

describe('resolveOptions', () => {
  it('defaults suit a phone call', () => {
    expect(resolveOptions({})).toEqual({
      threshold: 0.5,
      negativeThreshold: 0.35,
      minSpeechMs: 250,
      silenceMs: 600,
    })
  })

  it('puts the negative threshold 0.15 under the threshold, at least 0.01', () => {
    expect(resolveOptions({ threshold: 0.8 }).negativeThreshold).toBeCloseTo(0.65)
    expect(resolveOptions({ threshold: 0.1 }).negativeThreshold).toBe(0.01)
  })

  it.each([
    ['threshold', { threshold: 0 }],
    ['threshold', { threshold: 1 }],
    ['threshold', { threshold: Number.NaN }],
    ['negativeThreshold', { threshold: 0.5, negativeThreshold: 0.6 }],
    ['negativeThreshold', { negativeThreshold: -0.1 }],
    ['minSpeechMs', { minSpeechMs: -1 }],
    ['minSpeechMs', { minSpeechMs: Number.POSITIVE_INFINITY }],
    ['silenceMs', { silenceMs: '600' as unknown as number }],
    ['pauseMs', { silenceMs: 600, pauseMs: 600 }],
  ])('throws a RangeError naming %s', (name, options) => {
    expect(() => resolveOptions(options)).toThrow(RangeError)
    expect(() => resolveOptions(options)).toThrow(new RegExp(`SileroVAD: ${name} must be`))
  })
})
