import type { SocketStep } from '../net/socket-steps.js'

/** One step of what the fake ASR sends after a `flush`. */
export type FakeGradiumASRPart =
  /** A `text` segment (`{"type":"text","text","start_s","stream_id"}`); every one is final. */
  | { type: 'text'; text: string; startS?: number }
  /** An `end_text` (`{"type":"end_text","stop_s"}`): the end time of the last segment. */
  | { type: 'end_text'; stopS?: number }
  /** A `step` of the server's VAD. */
  | { type: 'step'; inactivityProb?: number }
  /** The `flushed` answering this flush, with its `flush_id`. */
  | { type: 'flushed' }
  /** An in-band `{"type":"error","message","code"}`, then (by default) a close with that code. */
  | { type: 'error'; message: string; code?: number; keepOpen?: boolean }
  /** Any server message, a raw frame, a wait, a close, a reset, or nothing more for this flush. */
  | SocketStep

/** Options of {@link createFakeGradiumSTT}. */
export interface FakeGradiumSTTOptions {
  /**
   * The key the fake accepts in `x-api-key` (default: any). Another key gets what Gradium's docs
   * describe: an in-band `error` with code 1008, then a close.
   */
  apiKey?: string
  /** Wait this long after `setup` before `ready` (default 0). */
  readyDelayMs?: number
  /** Never send `ready` (a handshake that stalls). Default false. */
  withholdReady?: boolean
  /**
   * What a flush with nothing scripted gets (default: an in-band `error` saying nothing was
   * scripted, so a forgotten script fails loudly).
   */
  fallback?: FakeGradiumASRPart[]
}
