import { Pcm16Aligner } from '@openmic/core/provider'
import { WINDOW_SAMPLES } from '../model/SileroModel.js'

/**
 * Cuts a PCM16 little-endian byte stream into the model's windows of float samples in [-1, 1],
 * whatever the chunk sizes: a byte (core's {@link Pcm16Aligner}) or samples left over wait for
 * the next chunk.
 */
export class Pcm16Windows {
  private readonly aligner = new Pcm16Aligner()
  private window = new Float32Array(WINDOW_SAMPLES)
  private filled = 0

  /** Adds a chunk; returns the windows it completes, in order (each owns its memory). */
  push(chunk: Uint8Array): Float32Array[] {
    const windows: Float32Array[] = []
    const whole = this.aligner.write(chunk)
    for (let offset = 0; offset < whole.length; offset += 2) {
      this.add(whole.readInt16LE(offset), windows)
    }
    return windows
  }

  private add(sample: number, windows: Float32Array[]): void {
    // Scaled as onnx speech models expect.
    this.window[this.filled++] = sample / 32768
    if (this.filled === WINDOW_SAMPLES) {
      windows.push(this.window)
      this.window = new Float32Array(WINDOW_SAMPLES)
      this.filled = 0
    }
  }
}
