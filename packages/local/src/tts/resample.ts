/**
 * Resamples mono PCM16 by linear interpolation (flite's `kal` voice speaks at 8 kHz; openmic
 * speaks 16 kHz). Returns the input itself when the rates are equal.
 */
export function resamplePcm16(
  samples: Int16Array<ArrayBuffer>,
  fromRate: number,
  toRate: number
): Int16Array<ArrayBuffer> {
  if (fromRate === toRate || samples.length === 0) return samples
  const length = Math.max(1, Math.round((samples.length * toRate) / fromRate))
  const out = new Int16Array(length)
  const step = fromRate / toRate
  const last = samples.length - 1
  for (let i = 0; i < length; i++) {
    const position = i * step
    const left = Math.min(Math.floor(position), last)
    const right = Math.min(left + 1, last)
    const fraction = position - left
    out[i] = Math.round(samples[left]! * (1 - fraction) + samples[right]! * fraction)
  }
  return out
}
