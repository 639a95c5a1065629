import { describe, expect, it } from 'vitest'
import { resamplePcm16 } from './resample.js'

describe('resamplePcm16', () => {
  it('returns the input when the rates are equal', () => {
    const samples = Int16Array.of(1, 2, 3)
    expect(resamplePcm16(samples, 16000, 16000)).toBe(samples)
  })

  it('keeps the duration and the pitch of a tone', () => {
    const tone = Int16Array.from({ length: 8000 }, (_, i) =>
      Math.round(10000 * Math.sin((2 * Math.PI * 440 * i) / 8000))
    )
    const out = resamplePcm16(tone, 8000, 16000)
    expect(out.length).toBe(16000)
    let crossings = 0
    for (let i = 1; i < out.length; i++) if (out[i - 1]! < 0 !== out[i]! < 0) crossings++
    expect(crossings).toBeGreaterThanOrEqual(878)
    expect(crossings).toBeLessThanOrEqual(882)
  })
})
