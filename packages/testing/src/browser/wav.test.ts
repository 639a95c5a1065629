import { describe, expect, it } from 'vitest'
import { chromiumArgs } from './chromium.js'
import { encodeWav, silencePcm } from './wav.js'

describe('browser test helpers', () => {
  it('encodeWav writes a 44-byte PCM16 mono header before the samples', () => {
    const pcm = Buffer.from([1, 0, 255, 127])
    const wav = encodeWav(pcm, 16000)
    expect(wav.subarray(0, 4).toString()).toBe('RIFF')
    expect(wav.readUInt32LE(4)).toBe(36 + 4)
    expect(wav.subarray(8, 16).toString()).toBe('WAVEfmt ')
    expect([
      wav.readUInt16LE(20),
      wav.readUInt16LE(22),
      wav.readUInt32LE(24),
      wav.readUInt16LE(34),
    ]).toEqual([1, 1, 16000, 16])
    expect(wav.readUInt32LE(40)).toBe(4)
    expect(wav.subarray(44)).toEqual(pcm)
  })

  it('silencePcm is zeroes of the right length', () => {
    expect(silencePcm(0.5)).toEqual(Buffer.alloc(16000))
  })

  it('chromiumArgs plays the fake microphone file once when asked', () => {
    expect(chromiumArgs({ fakeAudioFile: '/tmp/a.wav', loop: false })).toContain(
      '--use-file-for-fake-audio-capture=/tmp/a.wav%noloop'
    )
    expect(chromiumArgs({ fakeAudioFile: '/tmp/a.wav' })).toContain(
      '--use-file-for-fake-audio-capture=/tmp/a.wav'
    )
    expect(chromiumArgs()).toContain('--use-fake-ui-for-media-stream')
  })
})
