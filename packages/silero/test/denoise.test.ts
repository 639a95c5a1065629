import type { Denoiser } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { RnnoiseDenoiser, SileroVAD } from '../src/index.js'
import { mix, silence, speak, whiteNoise } from './audio.js'
import { feed, pairs, record } from './events.js'

function rms(audio: Buffer): number {
  let sum = 0
  for (let i = 0; i < audio.length / 2; i++) sum += audio.readInt16LE(i * 2) ** 2
  return Math.sqrt(sum / (audio.length / 2))
}

async function denoise(audio: Buffer, bytes = audio.length): Promise<Buffer> {
  const denoiser = await RnnoiseDenoiser.create()
  const out: Buffer[] = []
  for (let offset = 0; offset < audio.length; offset += bytes) {
    out.push(denoiser.process(audio.subarray(offset, offset + bytes)))
  }
  denoiser.destroy()
  return Buffer.concat(out)
}

describe('RnnoiseDenoiser', () => {
  it('takes white noise down by more than 10 dB, about as long as it came in', async () => {
    const noise = whiteNoise(3000, -30)
    const out = await denoise(noise)
    expect(Math.abs(out.length - noise.length)).toBeLessThanOrEqual(20 * 32)
    // The first half second is RNNoise learning the noise.
    const settled = out.subarray(16_000)
    expect(20 * Math.log10(rms(settled) / rms(noise))).toBeLessThan(-10)
  })

  it('gives the same audio for any chunking', async () => {
    const audio = mix(
      Buffer.concat([silence(300), await speak('Hello there.')]),
      whiteNoise(500, -35)
    )
    const whole = await denoise(audio)
    const pieces = await denoise(audio, 333)
    expect(pieces.equals(whole.subarray(0, pieces.length))).toBe(true)
    expect(whole.length - pieces.length).toBeLessThanOrEqual(32)
  })

  it('keeps the speech: SileroVAD still finds the sentence in denoised noisy speech', async () => {
    const speech = Buffer.concat([silence(1000), await speak('What time is it?'), silence(1500)])
    const noisy = mix(speech, whiteNoise(4000, -30, 3))
    const vad = new SileroVAD()
    const events = record(vad)
    await feed(vad, await denoise(noisy))
    vad.destroy()
    expect(pairs(events)).toHaveLength(1)
  })

  it('new RnnoiseDenoiser() after warmUp() denoises from its first chunk, as create() does', async () => {
    const noise = whiteNoise(1000, -30)
    await RnnoiseDenoiser.warmUp()
    const denoiser: Denoiser = new RnnoiseDenoiser()
    const out = denoiser.process(noise)
    denoiser.destroy()
    expect(out.equals(await denoise(noise))).toBe(true)
    expect(out.equals(noise.subarray(0, out.length))).toBe(false)
  })

  it('process() after destroy() throws', async () => {
    const denoiser = await RnnoiseDenoiser.create()
    denoiser.destroy()
    expect(() => denoiser.process(silence(10))).toThrow(/after destroy/)
  })
})
