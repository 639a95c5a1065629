import type { Denoiser } from '@openmic/core'
import { MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import { loadedRnnoise, loadRnnoise, RNNOISE_FRAME, type RnnoiseModule } from './load-rnnoise.js'

/**
 * Noise suppression with [RNNoise](https://jmvalin.ca/demo/rnnoise/) (compiled to wasm, from npm)
 * on a call's PCM16 16 kHz mono audio, for example in front of a `SileroVAD` on a noisy line.
 * RNNoise works on 10 ms frames at 48 kHz: the audio is resampled up and back down with core's
 * `Resampler`, so out comes PCM16 16 kHz again, as long as the input overall, about 10 ms behind.
 *
 * Create one per call (its state follows that call's noise); the wasm module loads once per
 * process. `new RnnoiseDenoiser()` is synchronous, for a call that must start at once (a phone
 * line's `denoise` option): call {@link RnnoiseDenoiser.warmUp} at startup, or the first chunks,
 * until RNNoise has loaded, pass through as they are. {@link RnnoiseDenoiser.create} waits for it.
 *
 * @example
 * const denoiser = await RnnoiseDenoiser.create()
 * socket.on('audio', (pcm16: Buffer) => vad.process(denoiser.process(pcm16)))
 * socket.on('close', () => denoiser.destroy())
 */
export class RnnoiseDenoiser implements Denoiser {
  private readonly up = new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: 48_000 })
  private readonly down = new Resampler({
    fromRate: 48_000,
    toRate: MICDROP_AUDIO_FORMAT.sampleRate,
  })
  /** 48 kHz samples waiting for a whole frame. */
  private pending = new Int16Array(0)
  private rnnoise?: RnnoiseModule
  private state = 0
  private frame = 0
  private destroyed = false

  /** A denoiser for one call's audio, now: it denoises once RNNoise has loaded (see above). */
  constructor() {
    const rnnoise = loadedRnnoise()
    if (rnnoise) this.start(rnnoise)
    else
      loadRnnoise().then(
        (module) => this.start(module),
        () => {} // the audio passes through; a later denoiser tries again
      )
  }

  /** A denoiser for one call's audio, with RNNoise loaded; the first one loads it. */
  static async create(): Promise<RnnoiseDenoiser> {
    await loadRnnoise()
    return new RnnoiseDenoiser()
  }

  /** Loads RNNoise ahead of the first call. */
  static async warmUp(): Promise<void> {
    await loadRnnoise()
  }

  /**
   * Denoises a chunk (any length, an odd byte kept for the next one); returns the denoised audio
   * it completes, which may be empty for a chunk shorter than a frame.
   * @throws Error after {@link RnnoiseDenoiser.destroy}.
   */
  process(audio: Buffer): Buffer {
    if (this.destroyed) throw new Error('RnnoiseDenoiser: process() after destroy()')
    const rnnoise = this.rnnoise
    if (!rnnoise) return audio
    const upsampled = this.up.write(audio)
    const samples = new Int16Array(this.pending.length + upsampled.length / 2)
    samples.set(this.pending)
    for (let i = 0; i < upsampled.length / 2; i++) {
      samples[this.pending.length + i] = upsampled.readInt16LE(i * 2)
    }
    const frames = Math.floor(samples.length / RNNOISE_FRAME)
    const denoised = Buffer.alloc(frames * RNNOISE_FRAME * 2)
    for (let f = 0; f < frames; f++) {
      // The heap may move when wasm memory grows: take the view anew for each frame.
      const heap = rnnoise.HEAPF32
      const at = this.frame / 4
      for (let i = 0; i < RNNOISE_FRAME; i++) heap[at + i] = samples[f * RNNOISE_FRAME + i]!
      rnnoise._rnnoise_process_frame(this.state, this.frame, this.frame)
      const out = rnnoise.HEAPF32
      for (let i = 0; i < RNNOISE_FRAME; i++) {
        const value = Math.max(-32768, Math.min(32767, Math.round(out[at + i]!)))
        denoised.writeInt16LE(value, (f * RNNOISE_FRAME + i) * 2)
      }
    }
    this.pending = samples.slice(frames * RNNOISE_FRAME)
    return this.down.write(denoised)
  }

  /** Frees the denoiser's wasm memory; `process()` throws after it. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    if (!this.rnnoise) return
    this.rnnoise._rnnoise_destroy(this.state)
    this.rnnoise._free(this.frame)
    this.state = 0
  }

  private start(rnnoise: RnnoiseModule) {
    if (this.destroyed) return
    this.rnnoise = rnnoise
    this.state = rnnoise._rnnoise_create(0)
    this.frame = rnnoise._malloc(RNNOISE_FRAME * 4)
  }
}
