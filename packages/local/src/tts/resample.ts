import { Resampler } from '@openmic/core/provider'

/**
 * Resamples a whole utterance of mono PCM16 (flite's `kal` voice speaks at 8 kHz; openmic speaks
 * 16 kHz) with core's band-limited {@link Resampler}. Returns the input itself when the rates are
 * equal.
 */
export function resamplePcm16(
  samples: Int16Array<ArrayBuffer>,
  fromRate: number,
  toRate: number
): Int16Array<ArrayBuffer> {
  if (fromRate === toRate || samples.length === 0) return samples
  const resampler = new Resampler({ fromRate, toRate })
  const input = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const output = Buffer.concat([resampler.write(input), resampler.end()])
  const copy = new Int16Array(output.length / 2)
  for (let i = 0; i < copy.length; i++) copy[i] = output.readInt16LE(i * 2)
  return copy
}
