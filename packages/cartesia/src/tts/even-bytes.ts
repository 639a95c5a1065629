/**
 * Keeps audio chunks whole samples (PCM16: 2 bytes): a byte left over from one chunk goes in front
 * of the next one.
 */
export class EvenBytes {
  private carry?: Buffer

  /** The chunk, with the last chunk's odd byte in front and its own odd byte held back. */
  take(chunk: Buffer): Buffer {
    const joined = this.carry ? Buffer.concat([this.carry, chunk]) : chunk
    const even = joined.length - (joined.length % 2)
    this.carry = even < joined.length ? joined.subarray(even) : undefined
    return joined.subarray(0, even)
  }
}
