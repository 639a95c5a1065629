import { describe, expect, it } from 'vitest'
import {
  arrayBufferToPcm16,
  concatPcm16,
  floatToPcm16,
  pcm16ToArrayBuffer,
  pcm16ToFloat,
  rmsToDb,
} from './pcm.js'

describe('pcm', () => {
  it('converts floats to PCM16 with clamping and full scale on both sides', () => {
    expect(Array.from(floatToPcm16(new Float32Array([0, 1, -1, 2, -2, 0.5])))).toEqual([
      0, 32767, -32768, 32767, -32768, 16383,
    ])
  })

  it('round-trips PCM16 through floats', () => {
    const pcm = new Int16Array([0, 1000, -1000, -32768, 12345])
    const back = floatToPcm16(pcm16ToFloat(pcm))
    pcm.forEach((sample, i) => expect(Math.abs(back[i]! - sample)).toBeLessThanOrEqual(1))
  })

  it('sends exactly the bytes of a subarray, little-endian', () => {
    const whole = new Int16Array([1, 2, 0x0102, 4])
    const bytes = new Uint8Array(pcm16ToArrayBuffer(whole.subarray(2, 3)))
    expect(Array.from(bytes)).toEqual([0x02, 0x01])
  })

  it('reads a binary frame, dropping a trailing odd byte', () => {
    const buffer = new Uint8Array([1, 0, 2, 0, 9]).buffer
    expect(Array.from(arrayBufferToPcm16(buffer))).toEqual([1, 2])
  })

  it('concatenates in order', () => {
    const out = concatPcm16([new Int16Array([1, 2]), new Int16Array([]), new Int16Array([3])])
    expect(Array.from(out)).toEqual([1, 2, 3])
  })

  it('gives levels in dBFS floored at -100', () => {
    expect(rmsToDb(1)).toBe(0)
    expect(rmsToDb(0.1)).toBeCloseTo(-20)
    expect(rmsToDb(0)).toBe(-100)
    expect(rmsToDb(1e-9)).toBe(-100)
  })
})
