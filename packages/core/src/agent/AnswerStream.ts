import { PassThrough } from 'node:stream'

/**
 * The stream an answer is written to. Once the answer is cancelled (or has ended), further writes
 * are silently dropped instead of failing with "write after end": a provider still finishing its
 * last chunk after `cancel()` must neither crash the process nor reach the listener. Writes go
 * straight to the readable side; `end()` finishes both sides as a `PassThrough` does.
 */
export class AnswerStream extends PassThrough {
  override write(chunk: any, encoding?: any, callback?: any): boolean {
    // Straight to the readable side: a pass-through has nothing to transform. An answer is short
    // text, so the reader is never made to wait (no backpressure, always `true`).
    if (!this.writableEnded && !this.destroyed) {
      this.push(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined)
    }
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') queueMicrotask(() => done(null))
    return true
  }

  override end(chunk?: any, encoding?: any, callback?: any): this {
    if (this.writableEnded || this.destroyed) {
      const done = [chunk, encoding, callback].find((arg) => typeof arg === 'function')
      if (done) queueMicrotask(() => done())
      return this
    }
    return super.end(chunk, encoding, callback)
  }
}
