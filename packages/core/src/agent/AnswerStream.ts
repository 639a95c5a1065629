import { PassThrough } from 'node:stream'

/**
 * The stream an answer is written to. Once the answer is cancelled (or has ended), further writes
 * are silently dropped instead of failing with "write after end": a provider still finishing its
 * last chunk after `cancel()` must neither crash the process nor reach the listener.
 */
export class AnswerStream extends PassThrough {
  override write(chunk: any, encoding?: any, callback?: any): boolean {
    if (this.writableEnded || this.destroyed) {
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') queueMicrotask(() => done(null))
      return true
    }
    return super.write(chunk, encoding, callback)
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
