import type { SocketStep } from '../net/socket-steps.js'
import type { UpgradeRejection } from '../net/websocket-fake-server.js'

/** One step of what the fake sends after an `input_audio.flush`. */
export type FakeTranscriptionPart =
  /** A `transcription.text.delta`: the next piece of text (not the text so far). */
  | { type: 'delta'; text: string }
  /** A `transcription.done` with the utterance's final text. */
  | { type: 'done'; text: string; language?: string | null }
  /** An in-band `{"type":"error","error":{"message","code"}}`; the socket stays open. */
  | { type: 'error'; message: string; code?: number }
  /** Any server event, a raw frame, a wait, a close, a reset or a stall. */
  | SocketStep

/** Options of {@link createFakeMistralRealtime}. */
export interface FakeMistralRealtimeOptions {
  /** Wait this long after the upgrade before `session.created` (default 0). */
  sessionCreatedDelayMs?: number
  /** Never send `session.created` (a handshake that stalls). Default false. */
  withholdSessionCreated?: boolean
  /**
   * What a flush with nothing scripted gets (default: an in-band `error` saying nothing was
   * scripted, so a forgotten script fails loudly).
   */
  fallback?: FakeTranscriptionPart[]
}

/** How the fake refuses a WebSocket upgrade: an HTTP status and a JSON body. */
export type FakeUpgradeRejection = UpgradeRejection
