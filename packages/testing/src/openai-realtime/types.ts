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
