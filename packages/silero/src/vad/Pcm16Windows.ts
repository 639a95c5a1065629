import { WINDOW_SAMPLES } from '../model/SileroModel.js'

/**
 * Cuts a PCM16 little-endian byte stream into the model's windows of float samples in [-1, 1],
 * whatever the chunk sizes: a byte or samples left over wait for the next chunk.
 */
export class Pcm16Windows {
  private carry?: number
  private window = new Float32Array(WINDOW_SAMPLES)
  private filled = 0

  /** Adds a chunk; returns the windows it completes, in order (each owns its memory). */
  push(chunk: Uint8Array): Float32Array[] {
    const windows: Float32Array[] = []
    let index = 0
    if (this.carry !== undefined && chunk.length > 0) {
      this.add(this.carry | (chunk[0]! << 8), windows)
      this.carry = undefined
      index = 1
    }
    for (; index + 1 < chunk.length; index += 2) {
      this.add(chunk[index]! | (chunk[index + 1]! << 8), windows)
    }
    if (index < chunk.length) this.carry = chunk[index]
    return windows
  }

  private add(unsigned: number, windows: Float32Array[]): void {
    // Sign-extend the 16-bit value, then scale as onnx speech models expect.
    this.window[this.filled++] = ((unsigned << 16) >> 16) / 32768
    if (this.filled === WINDOW_SAMPLES) {
      windows.push(this.window)
      this.window = new Float32Array(WINDOW_SAMPLES)
      this.filled = 0
    }
  }
}
