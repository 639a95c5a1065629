import { describe, expect, it } from 'vitest'
import { Pcm16Aligner } from './Pcm16Aligner.js'

describe('Pcm16Aligner', () => {
  it('rebuilds samples split across chunks at any byte', () => {
    const samples = Int16Array.from({ length: 50 }, (_, i) => ((i * 1237) % 65536) - 32768)
    const bytes = new Uint8Array(samples.buffer)
    for (const size of [1, 3, 7, 64]) {
      const aligner = new Pcm16Aligner()
      const out: number[] = []
      for (let start = 0; start < bytes.length; start += size) {
        out.push(...aligner.push(bytes.subarray(start, start + size)))
      }
      expect(out).toEqual([...samples])
    }
  })

  it('returns samples that own their memory (transferable)', () => {
    const chunk = new Uint8Array(new ArrayBuffer(64), 8, 10)
    const samples = new Pcm16Aligner().push(chunk)
    expect(samples.length).toBe(5)
    expect(samples.buffer.byteLength).toBe(10)
  })
})
