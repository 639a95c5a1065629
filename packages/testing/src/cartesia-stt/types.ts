import type { SocketStep } from '../net/socket-steps.js'

/** One step of what the fake STT sends after a `finalize`. */
export type FakeCartesiaSTTPart =
  /**
   * A `transcript` message. `text` is a delta from the last final one, as the API sends it: the
   * client joins finals verbatim, and shows an interim text after them.
   */
  | { type: 'transcript'; text: string; isFinal: boolean }
  /** `flush_done`: everything before the `finalize` was transcribed. */
  | { type: 'flush_done' }
  /** An in-band `error`; the socket stays open. */
  | { type: 'error'; message: string; status?: number; code?: string }
  /**
   * Any server message, a raw frame, a wait, a close, a reset, or nothing more for this finalize.
   */
  | SocketStep

/** Options of {@link createFakeCartesiaSTT}. */
export interface FakeCartesiaSTTOptions {
  /**
   * What a `finalize` with nothing scripted gets (default: an in-band `error` saying nothing was
   * scripted, so a forgotten script fails loudly).
   */
  fallback?: FakeCartesiaSTTPart[]
}
