import type { WebsocketClientEvent, WebsocketResponse } from '@cartesia/cartesia-js/resources/tts'
import { JsonSocket, type JsonSocketEnd } from '@openmic/core/provider'
import WebSocket from 'ws'
import { bodyMessage } from '../api/refusal.js'
import { CartesiaTTSError } from './errors.js'

/** What a {@link TTSSocket} reports to its owner. */
export interface TTSSocketEvents {
  /** A server message, parsed (a message that is not JSON is logged and dropped). */
  onMessage(event: WebsocketResponse): void
  /** The socket is gone (refused, timed out, closed by either side, reset); called once. */
  onClosed(error: CartesiaTTSError): void
  log(...message: unknown[]): void
}

/** How to open the TTS WebSocket. */
export interface TTSSocketOptions {
  url: string
  apiKey: string
  version: string
  connectionTimeoutMs: number
}

/**
 * One connection to Cartesia's TTS WebSocket (`/tts/websocket`), multiplexed by `context_id`.
 *
 * It is `ws` rather than the official SDK's `tts.websocket()`, which always connects with `wss:`
 * (so no local fake or plain-HTTP proxy can stand in) and gives neither the HTTP status of a
 * refused connection nor a close event; the messages are the SDK's types. The key and version go
 * in headers, as the SDK sends them from Node. Messages sent while the socket opens wait for it,
 * and are sent once: if the socket dies first, they are dropped with it.
 */
export class TTSSocket {
  private readonly socket: JsonSocket<WebsocketResponse, WebsocketClientEvent>

  constructor(options: TTSSocketOptions, events: TTSSocketEvents) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Cartesia-Version': options.version },
    })
    this.socket = new JsonSocket<WebsocketResponse, WebsocketClientEvent>(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      onMessage: (event) => events.onMessage(event),
      onEnd: (end) => events.onClosed(ttsError(end)),
      log: events.log,
    })
  }

  /** False once the socket is gone (or going): a new one is needed. */
  get usable(): boolean {
    return !this.socket.isEnded
  }

  /** True once the connection opened, even after it is gone. */
  get opened(): boolean {
    return this.socket.wasOpened
  }

  /** Sends a message now, or as soon as the socket is open. */
  send(message: WebsocketClientEvent): void {
    this.socket.send(message)
  }

  /** Closes the connection (a clean close, or a cut while it is still opening). */
  close(): void {
    this.socket.dispose()
  }
}

function ttsError(end: JsonSocketEnd): CartesiaTTSError {
  switch (end.kind) {
    case 'timeout':
      return new CartesiaTTSError(`no connection after ${end.timeoutMs} ms (timeout)`)
    case 'refused': {
      const message = bodyMessage(end.body) || end.statusMessage || 'connection refused'
      return new CartesiaTTSError(`${end.status} ${message}`, end.status)
    }
    case 'error':
      return new CartesiaTTSError(`connection error: ${end.error.message}`)
    case 'closed':
      return new CartesiaTTSError(
        `connection closed (code ${end.code}${end.reason ? ` ${end.reason}` : ''})`
      )
    case 'ended':
      return end.reason as CartesiaTTSError
  }
}
