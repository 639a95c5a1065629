import type { SocketStep } from '../net/socket-steps.js'
import type { UpgradeRejection } from '../net/websocket-fake-server.js'

/** One step of what the fake sends to a live session, played from its first audio. */
export type FakeGladiaPart =
  /** A `transcript` message with `is_final: false` (only when the session asked for partials). */
  | { type: 'partial'; text: string }
  /** A `transcript` message with `is_final: true`: one finished utterance in Gladia's sense. */
  | { type: 'final'; text: string }
  /** A `speech_start` or `speech_end` message (only when the session asked for speech events). */
  | { type: 'speech_start' | 'speech_end' }
  /** Wait until the client sent `stop_recording` (played at once if it already did). */
  | { type: 'stop' }
  /**
   * The end of the session after `stop_recording`, as the real API: `end_recording`,
   * `post_transcript`, `post_final_transcript`, `end_session` (each when the session asked for
   * that kind of message), then a close 1000.
   */
  | { type: 'end' }
  /** An `audio_chunk` acknowledgment with `acknowledged: false` and this error message. */
  | { type: 'error'; message: string }
  /**
   * Any server message (JSON-encoded, without the session stamp), a raw frame, a wait, or nothing
   * more. A `close` or a `reset` does not end the script: the next parts play on the socket that
   * resumes the session, if one does (put a `stop` next, or they are dropped).
   */
  | SocketStep

/** Options of {@link createFakeGladiaLive}. */
export interface FakeGladiaLiveOptions {
  /**
   * What a session with nothing scripted plays (default: an `error` part saying nothing was
   * scripted, so a forgotten script fails loudly).
   */
  fallback?: FakeGladiaPart[]
  /** Wait this long before answering `POST /v2/live` (default 0). */
  initDelayMs?: number
  /**
   * Acknowledge the audio it receives when the session asked for acknowledgments (default
   * true); false plays a server whose acknowledgments never arrive.
   */
  acknowledge?: boolean
  /** The API key the fake accepts in `x-gladia-key`; others get a 401. Default: any. */
  apiKey?: string
}

/** How the fake refuses a `POST /v2/live`: an HTTP status and a JSON body. */
export type FakeGladiaRejection = UpgradeRejection

/** One `POST /v2/live` the fake received. */
export interface FakeGladiaInitRequest {
  headers: Record<string, string | string[] | undefined>
  /** The query string's `region`, if any. */
  region: string | null
  /** The JSON body, parsed. */
  body: any
  /** The status the fake answered. */
  status: number
}
