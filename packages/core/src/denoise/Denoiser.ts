/**
 * Noise suppression on a call's audio, in front of its VAD and STT: PCM16 16 kHz mono in, the
 * same out. One instance per call (its state follows that call's noise).
 *
 * `process` may hold back a few ms (a frame it has not completed yet), so what it returns for a
 * chunk may be shorter or longer than the chunk; over the call it returns as much as it was given,
 * less what it still holds.
 */
export interface Denoiser {
  /** Denoises a chunk of PCM16 16 kHz mono; returns the denoised audio it completes. */
  process(pcm16: Buffer): Buffer
  /** Frees what the denoiser holds; it is not used after. */
  destroy(): void
}
