import type { WebsocketClientEvent, WebsocketResponse } from '@cartesia/cartesia-js/resources/tts'
import WebSocket from 'ws'
import { readRefusal } from '../shared/refusal.js'
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
  private readonly ws: WebSocket
  private readonly waiting: string[] = []
  private closed = false
  private everOpened = false
  private readonly timer: ReturnType<typeof setTimeout>

  constructor(
    options: TTSSocketOptions,
    private readonly events: TTSSocketEvents
  ) {
    this.ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Cartesia-Version': options.version },
    })
    this.timer = setTimeout(
      () =>
        this.end(
          new CartesiaTTSError(`no connection after ${options.connectionTimeoutMs} ms (timeout)`)
        ),
      options.connectionTimeoutMs
    )
    this.ws.on('unexpected-response', (_req, res) =>
      readRefusal(res, ({ status, message }) =>
        this.end(new CartesiaTTSError(`${status} ${message}`, status))
      )
    )
    this.ws.on('open', () => {
      clearTimeout(this.timer)
      this.everOpened = true
      for (const message of this.waiting.splice(0)) this.ws.send(message)
    })
    this.ws.on('message', (data) => this.receive(String(data)))
    this.ws.on('error', (error) =>
      this.end(new CartesiaTTSError(`connection error: ${error.message}`))
    )
    this.ws.on('close', (code, reason) =>
      this.end(
        new CartesiaTTSError(
          `connection closed (code ${code}${reason.length ? ` ${String(reason)}` : ''})`
        )
      )
    )
  }

  /** False once the socket is gone (or going): a new one is needed. */
  get usable(): boolean {
    return !this.closed
  }

  /** True once the connection opened, even after it is gone. */
  get opened(): boolean {
    return this.everOpened
  }

  /** Sends a message now, or as soon as the socket is open. */
  send(message: WebsocketClientEvent): void {
    if (this.closed) return
    const text = JSON.stringify(message)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text)
    else this.waiting.push(text)
  }

  /** Closes the connection (a clean close, or a cut while it is still opening). */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.waiting.length = 0
    clearTimeout(this.timer)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000)
    else this.ws.terminate()
  }

  private receive(text: string): void {
    if (this.closed) return
    let event: WebsocketResponse
    try {
      event = JSON.parse(text) as WebsocketResponse
    } catch {
      return this.events.log('Ignored a message that is not JSON:', text.slice(0, 200))
    }
    if (typeof event !== 'object' || event === null) {
      return this.events.log('Ignored a message that is not an object:', text.slice(0, 200))
    }
    this.events.onMessage(event)
  }

  private end(error: CartesiaTTSError): void {
    if (this.closed) return
    this.closed = true
    this.waiting.length = 0
    clearTimeout(this.timer)
    this.ws.terminate()
    this.events.onClosed(error)
  }
}
