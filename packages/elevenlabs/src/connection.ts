import type { ProviderErrorDetails } from '@openmic/core'
import {
  JsonSocket,
  socketEndError,
  type ProviderConnectionEvents,
  type ProviderConnectionOptions,
} from '@openmic/core/provider'
import { WebSocket } from 'ws'

/** How to open an {@link ElevenLabsConnection}. */
export interface ElevenLabsConnectionOptions<E extends Error> extends ProviderConnectionOptions {
  /** The error of the class it serves (`ElevenLabsSTTError`, `ElevenLabsTTSError`). */
  error(message: string, details: ProviderErrorDetails): E
}

/** What an {@link ElevenLabsConnection} reports to its owner. */
export interface ElevenLabsConnectionEvents<E extends Error> extends ProviderConnectionEvents<E> {
  /** A server message that parsed as a JSON object. */
  onMessage(message: Record<string, unknown>): void
}

/**
 * One WebSocket to the ElevenLabs API (speech-to-text or text-to-speech), authenticated with
 * `xi-api-key`, speaking JSON through core's {@link JsonSocket}: queued until open, never
 * replayed, malformed messages logged and ignored. `end(error)` ends it with that error.
 */
export class ElevenLabsConnection<E extends Error = Error> extends JsonSocket {
  constructor(options: ElevenLabsConnectionOptions<E>, events: ElevenLabsConnectionEvents<E>) {
    super(new WebSocket(options.url, { headers: { 'xi-api-key': options.apiKey } }), {
      connectionTimeoutMs: options.connectionTimeoutMs,
      onMessage: (message) => events.onMessage(message),
      onEnd: (end) => events.onClosed(socketEndError(end, options.error)),
      log: events.log,
    })
  }
}
