import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Resampler } from './Resampler.js'

/** A sine of `frequency` Hz at `rate` Hz, as PCM16 bytes (and the samples as numbers). */
function tone(frequency: number, rate: number, seconds: number, amplitude = 0.5) {
  const samples = Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * 32767 * Math.sin((2 * Math.PI * frequency * i) / rate)
  )
  const bytes = Buffer.alloc(samples.length * 2)
  samples.forEach((value, i) => bytes.writeInt16LE(Math.round(value), i * 2))
  return { bytes, samples }
}

function pcm16(bytes: Buffer): number[] {
  return Array.from({ length: bytes.length / 2 }, (_, i) => bytes.readInt16LE(i * 2))
}

/** RMS of the samples, away from the edges (where the signal starts and stops abruptly). */
function rms(samples: number[], skip = 200): number {
  const middle = samples.slice(skip, samples.length - skip)
  return Math.sqrt(middle.reduce((sum, value) => sum + value * value, 0) / middle.length)
}

function resampleAll(bytes: Buffer, fromRate: number, toRate: number): number[] {
  const resampler = new Resampler({ fromRate, toRate })
  return pcm16(Buffer.concat([resampler.write(bytes), resampler.end()]))
}

const dB = (ratio: number) => 20 * Math.log10(ratio)

describe('Resampler', () => {
  it('passes PCM16 through unchanged when the rates are equal', () => {
    const { bytes } = tone(440, 16000, 0.1)
    expect(Buffer.from(Int16Array.from(resampleAll(bytes, 16000, 16000)).buffer)).toEqual(bytes)
  })

  it.each([
    [16000, 24000],
    [24000, 16000],
    [8000, 16000],
    [22050, 16000],
  ])('keeps the duration from %i Hz to %i Hz', (fromRate, toRate) => {
    const { bytes } = tone(300, fromRate, 0.5)
    expect(resampleAll(bytes, fromRate, toRate)).toHaveLength(Math.round(toRate * 0.5))
  })

  it.each([
    [16000, 24000, 1000],
    [24000, 16000, 1000],
    [24000, 16000, 6000],
  ])(
    'keeps a tone it can carry (%i → %i Hz, %i Hz tone): same shape, same level',
    (from, to, hz) => {
      const out = resampleAll(tone(hz, from, 0.5).bytes, from, to)
      const expected = tone(hz, to, 0.5).samples
      const error = out.map((value, i) => value - expected[i]!)
      expect(dB(rms(out) / rms(expected))).toBeCloseTo(0, 1) // within 0.05 dB
      expect(dB(rms(error) / rms(expected))).toBeLessThan(-40)
    }
  )

  it('removes what 16 kHz cannot carry instead of folding it back (10 kHz tone at 24 kHz)', () => {
    const input = tone(10000, 24000, 0.5)
    const out = resampleAll(input.bytes, 24000, 16000)
    // Naive decimation would turn it into a 6 kHz tone at nearly the full level.
    expect(dB(rms(out) / rms(input.samples))).toBeLessThan(-60)
  })

  it('gives the same output whatever the chunks, a sample split between two included', () => {
    const { bytes } = tone(700, 24000, 0.2)
    const whole = resampleAll(bytes, 24000, 16000)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 30 }), (sizes) => {
        const resampler = new Resampler({ fromRate: 24000, toRate: 16000 })
        const out: Buffer[] = []
        let offset = 0
        for (const size of sizes) {
          out.push(resampler.write(bytes.subarray(offset, offset + size)))
          offset += size
        }
        out.push(resampler.write(bytes.subarray(offset)), resampler.end())
        expect(pcm16(Buffer.concat(out))).toEqual(whole)
      }),
      { numRuns: 50 }
    )
  })

  it('reads float32 samples (clipped to [-1, 1]) into the same PCM16 as their PCM16 twin', () => {
    const { samples } = tone(500, 24000, 0.1)
    const floats = Buffer.alloc(samples.length * 4)
    samples.forEach((value, i) => floats.writeFloatLE(Math.round(value) / 32767, i * 4))
    const fromFloat = new Resampler({ fromRate: 24000, toRate: 16000, inputFormat: 'float32' })
    const viaFloat = pcm16(Buffer.concat([fromFloat.write(floats), fromFloat.end()]))
    const viaPcm16 = resampleAll(tone(500, 24000, 0.1).bytes, 24000, 16000)
    viaFloat.forEach((value, i) => expect(Math.abs(value - viaPcm16[i]!)).toBeLessThanOrEqual(1))

    const loud = Buffer.alloc(8)
    loud.writeFloatLE(3, 0)
    loud.writeFloatLE(-3, 4)
    const same = new Resampler({ fromRate: 16000, toRate: 16000, inputFormat: 'float32' })
    expect(pcm16(same.write(loud))).toEqual([32767, -32767])
  })

  it('refuses rates that are not positive whole numbers, and writes after end()', () => {
    expect(() => new Resampler({ fromRate: 0, toRate: 16000 })).toThrow(/fromRate/)
    expect(() => new Resampler({ fromRate: 16000, toRate: 44.1 })).toThrow(/toRate/)
    const resampler = new Resampler({ fromRate: 24000, toRate: 16000 })
    resampler.end()
    expect(() => resampler.write(Buffer.alloc(2))).toThrow(/after end/)
  })

  it('writeInSlices gives the same audio as write, in slices of about sliceMs', () => {
    const { bytes } = tone(700, 24000, 0.5) // one large chunk of 500 ms
    const whole = resampleAll(bytes, 24000, 16000)
    const sliced = new Resampler({ fromRate: 24000, toRate: 16000 })
    const slices = [...sliced.writeInSlices(bytes, 20)]
    expect(slices.length).toBeGreaterThanOrEqual(24)
    // No slice much longer than 20 ms at 16 kHz (the first one is shorter: the filter's delay).
    expect(Math.max(...slices.map((slice) => slice.length))).toBeLessThanOrEqual(21 * 32)
    expect(pcm16(Buffer.concat([...slices, sliced.end()]))).toEqual(whole)
  })
})
