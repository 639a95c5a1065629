/**
 * Keeps a stream of PCM16 little-endian in whole samples: a chunk may end in the middle of a
 * sample (a network read, an SDK's frame), whose first byte waits for the next chunk. Every STT
 * that sends audio on, and every TTS that emits it, passes it through one of these per stream.
 *
 * @example
 * const aligner = new Pcm16Aligner()
 * response.on('data', (chunk) => emitAudio(aligner.write(chunk)))
 */
export class Pcm16Aligner {
  private carry: Buffer | undefined

  /** The chunk's whole samples, the last chunk's odd byte in front and its own held back. */
  write(chunk: Uint8Array): Buffer {
    const joined = this.carry ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk)
    const even = joined.length - (joined.length % 2)
    // A copy: the caller's buffer may be reused once `write` returns.
    this.carry = even < joined.length ? Buffer.from(joined.subarray(even)) : undefined
    return joined.subarray(0, even)
  }

  /** Whether a byte is held back for the next chunk. */
  get holding(): boolean {
    return this.carry !== undefined
  }

  /** Drops a byte held back (the stream ended on half a sample, which is not audio). */
  reset(): void {
    this.carry = undefined
  }
}
