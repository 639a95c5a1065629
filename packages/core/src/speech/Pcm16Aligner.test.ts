import { describe, expect, it } from 'vitest'
import { Pcm16Aligner } from './Pcm16Aligner.js'

describe('Pcm16Aligner', () => {
  it('rebuilds samples split across chunks at any byte', () => {
    const samples = Int16Array.from({ length: 50 }, (_, i) => ((i * 1237) % 65536) - 32768)
    const bytes = Buffer.from(samples.buffer)
    for (const size of [1, 3, 7, 64]) {
      const aligner = new Pcm16Aligner()
      const out: Buffer[] = []
      for (let start = 0; start < bytes.length; start += size) {
        const whole = aligner.write(bytes.subarray(start, start + size))
        expect(whole.length % 2).toBe(0)
        out.push(whole)
      }
      expect(Buffer.concat(out)).toEqual(bytes)
      expect(aligner.holding).toBe(false)
    }
  })

  it('keeps the held byte when the caller reuses its buffer', () => {
    const aligner = new Pcm16Aligner()
    const chunk = Buffer.from([1, 2, 3])
    aligner.write(chunk)
    chunk.fill(9)
    expect(aligner.write(Buffer.from([4]))).toEqual(Buffer.from([3, 4]))
  })
})
