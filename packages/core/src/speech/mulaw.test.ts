import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeMulaw, encodeMulaw } from './mulaw.js'

/**
 * G.711's μ-law expansion written out as the recommendation states it, independently of the
 * codec's table: the code is inverted, bit 7 is the sign, bits 6..4 the segment, bits 3..0 the
 * mantissa, and the 14-bit magnitude is `(2 * mantissa + 33) * 2^segment - 33`. A 16-bit sample is
 * that times 4.
 */
function g711Expand(code: number): number {
  const inverted = 255 - code
  const negative = inverted >= 128
  const segment = Math.floor((inverted % 128) / 16)
  const mantissa = inverted % 16
  const magnitude = ((2 * mantissa + 33) * 2 ** segment - 33) * 4
  // `0 - 0` rather than `-0`: PCM16 has one zero, and 0x7F decodes to it.
  return negative ? 0 - magnitude : magnitude
}

/** The segment a 16-bit magnitude falls in once biased (132): 0 for [0, 124], 7 from 16 252 up. */
function segmentOf(magnitude: number): number {
  const biased = Math.min(magnitude, 32635) + 132
  return Math.floor(Math.log2(biased)) - 7
}

function pcm16(...samples: number[]): Buffer {
  const bytes = Buffer.alloc(samples.length * 2)
  samples.forEach((value, i) => bytes.writeInt16LE(value, i * 2))
  return bytes
}

function samplesOf(bytes: Buffer): number[] {
  return Array.from({ length: bytes.length / 2 }, (_, i) => bytes.readInt16LE(i * 2))
}

const ALL_CODES = Buffer.from(Array.from({ length: 256 }, (_, code) => code))

describe('decodeMulaw', () => {
  it('gives every code the value of the G.711 formula', () => {
    const decoded = samplesOf(decodeMulaw(ALL_CODES))
    expect(decoded).toEqual(Array.from({ length: 256 }, (_, code) => g711Expand(code)))
  })

  it('matches the known anchors', () => {
    expect(samplesOf(decodeMulaw(Buffer.from([0xff, 0x7f, 0x00, 0x80])))).toEqual([
      0, 0, -32124, 32124,
    ])
  })

  it('gives two bytes per code', () => {
    expect(decodeMulaw(Buffer.alloc(0))).toHaveLength(0)
    expect(decodeMulaw(Buffer.alloc(160, 0xff))).toEqual(Buffer.alloc(320))
  })
})

describe('encodeMulaw', () => {
  it('gives back every code from its decoded value, 0x7F (negative zero) becoming 0xFF', () => {
    const again = encodeMulaw(decodeMulaw(ALL_CODES))
    for (let code = 0; code < 256; code++) {
      expect(again[code], `code 0x${code.toString(16)}`).toBe(code === 0x7f ? 0xff : code)
    }
  })

  it('encodes silence as 0xFF and clips beyond 32635', () => {
    expect([...encodeMulaw(pcm16(0, 32635, 32767, -32635, -32768))]).toEqual([
      0xff, 0x80, 0x80, 0x00, 0x00,
    ])
  })

  it('is monotone: a louder sample never decodes quieter', () => {
    const all = pcm16(...Array.from({ length: 65536 }, (_, i) => i - 32768))
    const decoded = samplesOf(decodeMulaw(encodeMulaw(all)))
    for (let i = 1; i < decoded.length; i++) {
      if (decoded[i]! < decoded[i - 1]!) {
        throw new Error(`not monotone at ${i - 32768}: ${decoded[i - 1]} then ${decoded[i]}`)
      }
    }
  })

  it('keeps a sine sweep within half a quantisation step of each segment', () => {
    // A sweep from 50 Hz to 3.9 kHz at 8 kHz, at full scale so every segment (and the clip) is hit.
    const rate = 8000
    const samples = Array.from({ length: rate }, (_, i) => {
      const t = i / rate
      const phase = 2 * Math.PI * (50 * t + ((3900 - 50) / 2) * t * t)
      return Math.round(32767 * Math.sin(phase) * (i / rate))
    })
    const decoded = samplesOf(decodeMulaw(encodeMulaw(pcm16(...samples))))
    const segmentsSeen = new Set<number>()
    samples.forEach((sample, i) => {
      const magnitude = Math.abs(sample)
      const segment = segmentOf(magnitude)
      segmentsSeen.add(segment)
      // The step of segment s is 2^(s+3); the decoder returns the middle of the interval. Beyond
      // the clip the error is the distance to the loudest code (32124).
      const bound = magnitude > 32635 ? magnitude - 32124 : 2 ** (segment + 2)
      expect(Math.abs(decoded[i]! - sample), `sample ${i} = ${sample}`).toBeLessThanOrEqual(bound)
    })
    expect([...segmentsSeen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it('encodes whole samples only: an odd trailing byte is ignored', () => {
    const bytes = Buffer.concat([pcm16(1000, -1000), Buffer.from([0x7f])])
    expect(encodeMulaw(bytes)).toEqual(encodeMulaw(pcm16(1000, -1000)))
    expect(encodeMulaw(Buffer.from([0x12]))).toHaveLength(0)
  })

  it('reads samples from a view at any offset, and agrees with encoding one by one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 64 }),
        (values) => {
          const backing = Buffer.concat([Buffer.from([1]), pcm16(...values)])
          const unaligned = backing.subarray(1)
          const whole = encodeMulaw(unaligned)
          const oneByOne = Buffer.concat(values.map((value) => encodeMulaw(pcm16(value))))
          expect(whole).toEqual(oneByOne)
        }
      )
    )
  })
})
