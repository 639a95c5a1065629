import { JsonSocket, type JsonSocketEnd } from '@openmic/core/provider'
import { WebSocket } from 'ws'

/** How to open an {@link ElevenLabsConnection}. */
export interface ElevenLabsConnectionOptions {
  url: string
  apiKey: string
  connectionTimeoutMs: number
  /** A server message that parsed as a JSON object. */
  onMessage(message: Record<string, unknown>): void
  /** Called once when the connection is over, whatever ended it (never after `dispose()`). */
  onEnd(end: JsonSocketEnd): void
  log(...message: unknown[]): void
}

/**
 * One WebSocket to the ElevenLabs API (speech-to-text or text-to-speech), authenticated with
 * `xi-api-key`, speaking JSON through core's {@link JsonSocket}: queued until open, never
 * replayed, malformed messages logged and ignored.
 */
export class ElevenLabsConnection extends JsonSocket {
  constructor(options: ElevenLabsConnectionOptions) {
    super(new WebSocket(options.url, { headers: { 'xi-api-key': options.apiKey } }), {
      connectionTimeoutMs: options.connectionTimeoutMs,
      onMessage: options.onMessage,
      onEnd: options.onEnd,
      log: options.log,
    })
  }
}
