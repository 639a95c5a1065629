import { JsonSocket, describeSocketEnd, type JsonSocketEnd } from '@openmic/core/provider'
import { WebSocket } from 'ws'
import { detailMessage } from './refused-upgrade.js'

export type { JsonSocket }

/** Why an ElevenLabs socket is over. */
export interface SocketEnd {
  /** What happened, e.g. `HTTP 401 invalid_api_key: ...` or `connection closed (code 1000)`. */
  message: string
  /** HTTP status of a refused upgrade. */
  status?: number
  /** Close code of a closed connection. */
  closeCode?: number
}

export interface JsonSocketOptions {
  url: string
  apiKey: string
  connectionTimeoutMs: number
  /** A server message that parsed as a JSON object. */
  onMessage(message: Record<string, unknown>): void
  /** Called once when the socket is over, whatever ended it (never after `dispose()`). */
  onEnd(end: SocketEnd): void
  log(...message: unknown[]): void
}

/**
 * One WebSocket to the ElevenLabs API, authenticated with `xi-api-key`, speaking JSON through
 * core's {@link JsonSocket} (queued until open, never replayed; malformed messages logged and
 * ignored). `socket.end(end)` takes a {@link SocketEnd}.
 */
export function openJsonSocket(options: JsonSocketOptions): JsonSocket {
  const ws = new WebSocket(options.url, { headers: { 'xi-api-key': options.apiKey } })
  return new JsonSocket(ws, {
    connectionTimeoutMs: options.connectionTimeoutMs,
    onMessage: options.onMessage,
    onEnd: (end) => options.onEnd(socketEnd(end)),
    log: options.log,
  })
}

function socketEnd(end: JsonSocketEnd): SocketEnd {
  switch (end.kind) {
    case 'ended':
      return end.reason as SocketEnd
    case 'refused':
      return { message: describeSocketEnd(end, detailMessage), status: end.status }
    case 'closed':
      return { message: describeSocketEnd(end), closeCode: end.code }
    default:
      return { message: describeSocketEnd(end) }
  }
}
