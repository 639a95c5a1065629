import type { IncomingHttpHeaders } from 'node:http'
import type { SocketStep } from '../net/socket-steps.js'

/**
 * One step of what the fake Realtime server does after a commit (the transcription of that
 * utterance), in the wire format of OpenAI's realtime transcription.
 */
export type FakeTranscriptionStep =
  /** A `conversation.item.input_audio_transcription.delta` with this text. */
  | { type: 'delta'; delta: string }
  /** The final `conversation.item.input_audio_transcription.completed`. */
  | { type: 'completed'; transcript: string }
  /** A `conversation.item.input_audio_transcription.failed` for the utterance's item. */
  | { type: 'failed'; message?: string; code?: string }
  /** An in-band `error` event; the connection stays open, as the real API's does. */
  | { type: 'error'; message: string; code?: string; errorType?: string }
  /**
   * One raw message (a value sent as JSON, or a string sent as it is), a wait, a close
   * handshake (default 1000), or a reset of the TCP connection.
   */
  | Extract<SocketStep, { type: 'event' | 'delay' | 'close' | 'reset' }>

/** A handshake the fake server received: accepted (101) or rejected with an HTTP status. */
export interface FakeRealtimeHandshake {
  /** Path and query, e.g. `/v1/realtime?intent=transcription`. */
  url: string
  headers: IncomingHttpHeaders
  /** 101 when the upgrade was accepted, else the HTTP status it was rejected with. */
  status: number
}

/** An utterance the client committed: the audio appended since the previous commit or clear. */
export interface FakeRealtimeCommit {
  /** Index of the connection in `fake.connections`. */
  connection: number
  /** The item id the fake assigned (sent in `input_audio_buffer.committed` and the transcription). */
  itemId: string
  /** The decoded audio bytes (PCM16 24 kHz if the client follows the protocol). */
  audio: Buffer
}

/** What one accepted WebSocket connection received. */
export interface FakeRealtimeConnectionRecord {
  /** Path and query of the upgrade request. */
  url: string
  headers: IncomingHttpHeaders
  /** Every client event, parsed (a message that is not JSON is kept as its text). */
  events: unknown[]
  /** The `session` bodies of the `session.update` events, in order. */
  sessionUpdates: unknown[]
  /** Whether the connection is closed (by either side). */
  closed: boolean
}

/**
 * One step of a scripted response of a conversation session (`/v1/realtime?model=...`), in the
 * wire format of OpenAI's Realtime API. Speech goes to the response's spoken item, opened by
 * the first `audio` or `transcript` step.
 */
export type FakeResponseStep =
  /** `ms` of speech (a tone, PCM16 24 kHz) as `response.output_audio.delta` events. */
  | { type: 'audio'; ms: number; chunkMs?: number }
  /** A `response.output_audio_transcript.delta`. */
  | { type: 'transcript'; delta: string }
  /** A function call item: its arguments' delta and `response.function_call_arguments.done`. */
  | { type: 'function_call'; name: string; arguments: string; callId?: string }
  /** The response ends `failed` (`response.done` with `status_details.error`). */
  | { type: 'fail'; message: string; code?: string }
  /** An in-band `error` event; the response goes on (or stalls, if nothing follows). */
  | { type: 'error'; message: string; code?: string; errorType?: string }
  /** Nothing more for this response until it is cancelled. */
  | { type: 'stall' }
  /**
   * The tokens its `response.done` reports (`usage`), from the point it is played: first, for a
   * response that may be cancelled. Without it the usage is `null`.
   */
  | { type: 'usage'; usage: FakeRealtimeUsage }
  /** A raw message, a wait, a close handshake, a reset of the TCP connection. */
  | Extract<SocketStep, { type: 'event' | 'delay' | 'close' | 'reset' }>

/** An item of a fake conversation session: what the model would remember. */
export interface FakeRealtimeItem {
  id: string
  type: 'message' | 'function_call' | 'function_call_output'
  role?: 'user' | 'assistant' | 'system'
  /**
   * A message's text: what was written, the model's transcript, or the user's (once
   * transcribed); a function call's arguments; a function call output.
   */
  text: string
  /** How it came: committed user audio, the model's speech, or created by the client. */
  source: 'audio' | 'speech' | 'created'
  /** Audio it holds, in ms (user audio, model speech). */
  audioMs?: number
  /** Where `conversation.item.truncate` cut it, in ms. */
  truncatedAtMs?: number
  callId?: string
  name?: string
  status: 'in_progress' | 'completed' | 'incomplete'
}

/** A `response.create` the fake received. */
export interface FakeRealtimeResponseRecord {
  /** Index of the connection in `fake.connections`. */
  connection: number
  /** The `response` body of the event (out-of-band settings, metadata...), if any. */
  body: Record<string, unknown> | undefined
  /** The conversation the response saw (copies), in order; empty for an out-of-band response. */
  conversation: FakeRealtimeItem[]
  /** The response's id, once created (none when it was refused). */
  id?: string
  /** How it ended, once it did. */
  status?: 'completed' | 'cancelled' | 'failed'
}

/**
 * The tokens of a response, by kind: `response.done` carries them in the API's shape (totals,
 * `input_token_details`, `output_token_details`).
 */
export interface FakeRealtimeUsage {
  input: { text: number; audio: number; cached?: number }
  output: { text: number; audio: number }
}
