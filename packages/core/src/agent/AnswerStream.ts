import { PassThrough } from 'node:stream'
import { MadeAhead } from '../model/made-ahead.js'

/**
 * The stream an answer is written to. Once the answer is cancelled (or has ended), further writes
 * are silently dropped instead of failing with "write after end": a provider still finishing its
 * last chunk after `cancel()` must neither crash the process nor reach the listener. Writes go
 * straight to the readable side; `end()` finishes both sides as a `PassThrough` does.
 */
export class AnswerStream extends PassThrough {
  override write(chunk: any, encoding?: any, callback?: any): boolean {
    // Straight to the readable side: a pass-through has nothing to transform, and the writable
    // machinery costs a callback and a tick per write on the path of every answer's text.
    // An answer is short text: the reader is never made to wait (no backpressure, `true`).
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

/** Answer streams made ahead: `answer()` takes one ready-made (see {@link MadeAhead}). */
export const answerStreams = new MadeAhead(() => new AnswerStream(), 1)
