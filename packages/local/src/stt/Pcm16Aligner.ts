/**
 * Turns a byte stream of PCM16 little-endian into whole samples: a chunk may end in the middle of
 * a sample, whose first byte is kept for the next chunk. Each result owns its memory (transferable).
 */
export class Pcm16Aligner {
  private carry?: number

  push(chunk: Uint8Array): Int16Array<ArrayBuffer> {
    let input = chunk
    if (this.carry !== undefined) {
      input = new Uint8Array(chunk.length + 1)
      input[0] = this.carry
      input.set(chunk, 1)
      this.carry = undefined
    }
    const whole = input.length - (input.length % 2)
    const samples = new Int16Array(whole / 2)
    new Uint8Array(samples.buffer).set(input.subarray(0, whole))
    if (whole < input.length) this.carry = input[whole]
    return samples
  }
}
