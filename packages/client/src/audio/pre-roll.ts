import { concatPcm16 } from './pcm.js'

/**
 * Keeps the most recent audio (at least `maxSamples`, at most one frame more), so that the
 * syllable spoken before the VAD reacted can be sent with the utterance.
 */
export class PreRoll {
  private frames: Int16Array[] = []
  private length = 0

  constructor(private maxSamples: number) {}

  /** Adds a frame (kept by reference: do not reuse its memory) and drops the oldest ones. */
  push(frame: Int16Array): void {
    this.frames.push(frame)
    this.length += frame.length
    while (this.frames.length > 1 && this.length - this.frames[0]!.length >= this.maxSamples) {
      this.length -= this.frames.shift()!.length
    }
  }

  /** The buffered audio, oldest first, as one array. */
  read(): Int16Array {
    return concatPcm16(this.frames)
  }

  /** Number of buffered samples. */
  get size(): number {
    return this.length
  }

  /** Changes how much is kept (from the next push on). */
  resize(maxSamples: number): void {
    this.maxSamples = maxSamples
  }

  clear(): void {
    this.frames = []
    this.length = 0
  }
}
