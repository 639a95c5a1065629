import { EventEmitter } from 'eventemitter3'
import { isRecoverableClose } from './MicdropClientError.js'
import { DEFAULT_RECONNECT_OPTIONS, reconnectDelayMs } from './reconnect.js'
import type { MicdropReconnectOptions } from './reconnect.js'
import type { MicdropWebSocket } from './types.js'

const CONNECTING = 0
const OPEN = 1

export interface ConnectionOptions {
  url: string
  /** Sent as the first (JSON) frame of every socket, reconnections included. */
  params?: Record<string, unknown>
  reconnect?: MicdropReconnectOptions
  createWebSocket: (url: string) => MicdropWebSocket
  /** Jitter of the reconnection delays (injectable for tests). */
  random?: () => number
  log?: (...args: unknown[]) => void
}

export interface ConnectionEvents {
  /** A socket opened and the params were sent (the first one, or one after a reconnection). */
  Open: []
  /** A binary frame (the assistant's audio). */
  Audio: [ArrayBuffer]
  /** A text frame (a protocol message). */
  Text: [string]
  /** The socket dropped and attempt `attempt` (1 for the first) starts in `delayMs`. */
  Reconnecting: [attempt: number, delayMs: number]
  /**
   * The connection ended for good: a close that reconnecting cannot fix, or the last attempt
   * failed. Not emitted after {@link Connection.close}.
   */
  Close: [code: number, reason: string]
}

/**
 * The link of one call with the server: a WebSocket that sends the call's params first, times
 * out if it does not open, and is replaced with backoff when it drops for a recoverable reason.
 * It knows nothing of audio or of the conversation; a call makes one and closes it when it ends.
 */
export class Connection extends EventEmitter<ConnectionEvents> {
  private ws?: MicdropWebSocket
  private reconnecting = false
  private attempt = 0
  private closed = false
  private connectTimer?: ReturnType<typeof setTimeout>
  private reconnectTimer?: ReturnType<typeof setTimeout>
  private readonly reconnect: Required<MicdropReconnectOptions>

  constructor(private readonly options: ConnectionOptions) {
    super()
    this.reconnect = { ...DEFAULT_RECONNECT_OPTIONS, ...options.reconnect }
  }

  /** A socket is open: frames can be sent. */
  get isOpen(): boolean {
    return this.ws?.readyState === OPEN
  }

  /** The socket dropped and a new one is being made (between the drop and the next open). */
  get isReconnecting(): boolean {
    return this.reconnecting
  }

  /** Opens the first socket. A connection is opened once; make a new one for another call. */
  open(): void {
    if (this.closed || this.ws || this.reconnecting) return
    this.openSocket()
  }

  /** Sends a frame if a socket is open; while offline it is dropped (the server could not use it late). */
  send(data: string | ArrayBuffer): void {
    if (this.ws?.readyState === OPEN) this.ws.send(data)
  }

  /** Ends the connection (closing the socket with `code`) and cancels any reconnection. */
  close(code = 1000): void {
    this.closed = true
    this.reconnecting = false
    this.clearTimers()
    const ws = this.forget()
    if (ws && (ws.readyState === OPEN || ws.readyState === CONNECTING)) ws.close(code)
  }

  private openSocket() {
    const { url, createWebSocket } = this.options
    this.log('Connecting', url)
    let ws: MicdropWebSocket
    try {
      ws = createWebSocket(url)
    } catch (error) {
      return this.onClose(1006, (error as Error)?.message ?? '')
    }
    this.ws = ws
    ws.binaryType = 'arraybuffer'
    ws.onopen = () => this.onOpen(ws)
    ws.onmessage = (event) => this.onMessage(event.data)
    ws.onclose = (event) => {
      this.forget()
      this.onClose(event.code, event.reason)
    }
    ws.onerror = () => this.log('WebSocket error')
    this.connectTimer = setTimeout(() => {
      this.connectTimer = undefined
      if (this.ws !== ws || ws.readyState !== CONNECTING) return
      this.log('Connection timeout')
      // Closed so that it cannot open late, beside its replacement
      this.forget()?.close(1000)
      this.onClose(1006, 'Connection timeout')
    }, this.reconnect.connectionTimeoutMs)
  }

  private onOpen(ws: MicdropWebSocket) {
    this.log('Connected')
    clearTimeout(this.connectTimer)
    this.connectTimer = undefined
    if (this.options.params) ws.send(JSON.stringify(this.options.params))
    this.reconnecting = false
    this.attempt = 0
    this.emit('Open')
  }

  private onMessage(data: unknown) {
    if (data instanceof ArrayBuffer) this.emit('Audio', data)
    else if (typeof data === 'string') this.emit('Text', data)
    else this.log('Ignored a frame of unknown type')
  }

  private onClose(code: number, reason: string) {
    this.log('Closed', code, reason)
    clearTimeout(this.connectTimer)
    this.connectTimer = undefined
    if (isRecoverableClose(code) && this.attempt < this.reconnect.maxAttempts) {
      this.reconnecting = true
      this.attempt++
      const delay = reconnectDelayMs(this.attempt, this.reconnect, this.options.random)
      this.log(`Reconnecting in ${delay} ms (attempt ${this.attempt})`)
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined
        this.openSocket()
      }, delay)
      this.emit('Reconnecting', this.attempt, delay)
      return
    }
    this.closed = true
    this.reconnecting = false
    this.emit('Close', code, reason)
  }

  /** Forgets the socket (its late events are ignored) and returns it. */
  private forget(): MicdropWebSocket | undefined {
    const ws = this.ws
    this.ws = undefined
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null
      // Not null: a socket closed while connecting reports an error, which must not go unheard
      ws.onerror = ignore
    }
    return ws
  }

  private clearTimers() {
    clearTimeout(this.connectTimer)
    clearTimeout(this.reconnectTimer)
    this.connectTimer = this.reconnectTimer = undefined
  }

  private log(...args: unknown[]) {
    this.options.log?.(...args)
  }
}

function ignore() {}
