import type { IncomingHttpHeaders } from 'node:http'
import type { SocketStep } from '../net/socket-steps.js'

/** One step of what the fake Scribe server does after a commit, in Scribe's wire format. */
export type FakeScribeStep =
  /** A `partial_transcript`: the interim text of the segment so far. */
  | { type: 'partial'; text: string }
  /** A `committed_transcript` with the segment's final text. */
  | { type: 'committed'; text: string }
  /**
   * One of Scribe's error messages (`message_type` `error`, `auth_error`, `quota_exceeded`,
   * `transcriber_error`, `input_error`, `rate_limited`...) with its `error` text.
   */
  | { type: 'error'; messageType?: string; error: string }
  /**
   * One raw message (a value sent as JSON, or a string sent as it is), a wait, a close, a reset,
   * or nothing more for this commit.
   */
  | Exclude<SocketStep, { type: 'raw' }>

/** A session the client opened: its handshake and what it sent. */
export interface FakeScribeSessionRecord {
  /** Path and query of the upgrade request (`model_id`, `audio_format`, `commit_strategy`...). */
  url: URL
  headers: IncomingHttpHeaders
  /** Every client message, parsed (one that is not JSON is kept as its text). */
  messages: unknown[]
  /** The decoded audio of every `input_audio_chunk`, in order (empty ones included). */
  chunks: Buffer[]
  /** The audio of each committed segment: the chunks since the previous commit, joined. */
  commits: Buffer[]
  /** Whether the connection is closed (by either side). */
  closed: boolean
}

/** Options of {@link createFakeElevenLabsSTT}. */
export interface FakeElevenLabsSTTOptions {
  /** The `xi-api-key` the fake accepts (default: any); another one gets HTTP 401. */
  apiKey?: string
  /**
   * What a commit with nothing scripted gets (default: a `transcriber_error` saying nothing was
   * scripted, so a forgotten script fails loudly).
   */
  fallback?: FakeScribeStep[]
}
