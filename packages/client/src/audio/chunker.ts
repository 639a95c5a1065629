/**
 * Cuts a stream of PCM16 frames into chunks of a fixed length (about 100 ms on the wire).
 * The last, shorter chunk comes out of {@link Pcm16Chunker.flush}.
 */
export class Pcm16Chunker {
  private buffer: Int16Array
  private length = 0

  constructor(readonly chunkSamples: number) {
    if (!(chunkSamples > 0)) throw new RangeError('chunkSamples must be positive')
    this.buffer = new Int16Array(chunkSamples)
  }

  /** Adds samples and returns every chunk they complete (each a fresh array). */
  push(samples: Int16Array): Int16Array[] {
    const chunks: Int16Array[] = []
    let offset = 0
    while (offset < samples.length) {
      const take = Math.min(this.chunkSamples - this.length, samples.length - offset)
      this.buffer.set(samples.subarray(offset, offset + take), this.length)
      this.length += take
      offset += take
      if (this.length === this.chunkSamples) {
        chunks.push(this.buffer)
        this.buffer = new Int16Array(this.chunkSamples)
        this.length = 0
      }
    }
    return chunks
  }

  /** Returns what is left (shorter than a chunk), or undefined when nothing is. */
  flush(): Int16Array | undefined {
    if (this.length === 0) return undefined
    const rest = this.buffer.slice(0, this.length)
    this.length = 0
    return rest
  }

  /** Drops what is buffered. */
  reset(): void {
    this.length = 0
  }
}
