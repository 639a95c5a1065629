import { describe, expect, it } from 'vitest'
import { Pcm16Windows } from './Pcm16Windows.js'

function pcm16(count: number): Buffer {
  const audio = Buffer.alloc(count * 2)
  for (let i = 0; i < count; i++) audio.writeInt16LE(((i * 37) % 65536) - 32768, i * 2)
  return audio
}

describe('Pcm16Windows', () => {
  it('cuts 512-sample windows of floats in [-1, 1)', () => {
    const [window, ...rest] = new Pcm16Windows().push(pcm16(700))
    expect(rest).toHaveLength(0)
    expect(window).toHaveLength(512)
    expect(window![0]).toBe(-1)
    expect(window![1]).toBeCloseTo((37 - 32768) / 32768, 6)
  })

  it('gives the same windows for any chunking, odd bytes included', () => {
    const audio = pcm16(2000)
    const whole = new Pcm16Windows().push(audio)
    const windows = new Pcm16Windows()
    const pieces: Float32Array[] = []
    for (let offset = 0; offset < audio.length; offset += 333) {
      pieces.push(...windows.push(audio.subarray(offset, offset + 333)))
    }
    expect(pieces).toEqual(whole)
    expect(whole).toHaveLength(3)
  })

  it('keeps a lone byte for the next chunk', () => {
    const windows = new Pcm16Windows()
    const audio = pcm16(512)
    expect(windows.push(audio.subarray(0, 1))).toEqual([])
    expect(windows.push(Buffer.alloc(0))).toEqual([])
    expect(windows.push(audio.subarray(1))).toEqual(new Pcm16Windows().push(audio))
  })
})
