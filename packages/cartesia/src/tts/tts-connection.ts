import type { WebsocketClientEvent, WebsocketResponse } from '@cartesia/cartesia-js/resources/tts'
import {
  JsonSocket,
  describeSocketEnd,
  errorBodyMessage,
  socketEndError,
  type JsonSocketEnd,
  type ProviderConnectionEvents,
  type ProviderConnectionOptions,
} from '@openmic/core/provider'
import WebSocket from 'ws'
import { CartesiaTTSError } from './errors.js'

/** What a {@link CartesiaTTSConnection} reports to its owner. */
export interface CartesiaTTSConnectionEvents extends ProviderConnectionEvents<CartesiaTTSError> {
  /** A server message, parsed (a message that is not JSON is logged and dropped). */
  onMessage(event: WebsocketResponse): void
}

/** How to open the TTS WebSocket. */
export interface CartesiaTTSConnectionOptions extends ProviderConnectionOptions {
  /** The `Cartesia-Version` header. */
  version: string
}

/**
 * One connection to Cartesia's TTS WebSocket (`/tts/websocket`), multiplexed by `context_id`
 * (the connection of a CartesiaTTS).
 *
 * It is `ws` rather than the official SDK's `tts.websocket()`, which always connects with `wss:`
 * (so no local fake or plain-HTTP proxy can stand in) and gives neither the HTTP status of a
 * refused connection nor a close event; the messages are the SDK's types. The key and version go
 * in headers, as the SDK sends them from Node. Messages sent while the socket opens wait for it,
 * and are sent once: if the socket dies first, they are dropped with it.
 */
export class CartesiaTTSConnection {
  private readonly socket: JsonSocket<WebsocketResponse, WebsocketClientEvent>

  constructor(options: CartesiaTTSConnectionOptions, events: CartesiaTTSConnectionEvents) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Cartesia-Version': options.version },
    })
    this.socket = new JsonSocket<WebsocketResponse, WebsocketClientEvent>(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      onMessage: (event) => events.onMessage(event),
      onEnd: (end) =>
        events.onClosed(
          socketEndError(
            end,
            (message, details) => new CartesiaTTSError(message, details),
            describe
          )
        ),
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

/** How an end reads in Cartesia's words (`401 Invalid API key`, `no connection after N ms`). */
function describe(end: JsonSocketEnd): string {
  switch (end.kind) {
    case 'timeout':
      return `no connection after ${end.timeoutMs} ms (timeout)`
    case 'refused':
      return `${end.status} ${errorBodyMessage(end.body) || end.statusMessage || 'connection refused'}`
    default:
      return describeSocketEnd(end)
  }
}
