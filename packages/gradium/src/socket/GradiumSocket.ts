import { JsonSocket, errorBodyMessage, type JsonSocketEnd } from '@openmic/core/provider'
import WebSocket from 'ws'
import { GradiumError, type GradiumProvider } from '../errors.js'

/** A message Gradium sent, parsed: its `type` and whatever else it carries. */
export interface GradiumMessage {
  type: string
  [key: string]: unknown
}

/** What a {@link GradiumSocket} reports to its owner. */
export interface GradiumSocketEvents {
  /** The socket is open: the owner sends its first `setup`. */
  onOpen(): void
  /** A well-formed server message (a malformed one is logged and dropped). */
  onMessage(message: GradiumMessage): void
  /** The socket is gone (refused, timed out, closed by either side, reset); called once. */
  onClosed(error: GradiumError): void
  log(...message: unknown[]): void
}

/** How to open one Gradium WebSocket. */
export interface GradiumSocketOptions {
  provider: GradiumProvider
  url: string
  apiKey: string
  /** Until {@link GradiumSocket.markReady}: past it, the socket is given up. */
  connectionTimeoutMs: number
}

/**
 * One WebSocket to a Gradium speech endpoint, authenticated with the `x-api-key` header: JSON
 * messages both ways (core's {@link JsonSocket}), a refused upgrade reported with its HTTP status,
 * a connection timeout that runs until the owner says the socket is ready, and one `onClosed`
 * whatever ends it.
 */
export class GradiumSocket {
  private readonly socket: JsonSocket<GradiumMessage>

  constructor(options: GradiumSocketOptions, events: GradiumSocketEvents) {
    const ws = new WebSocket(options.url, { headers: { 'x-api-key': options.apiKey } })
    this.socket = new JsonSocket<GradiumMessage>(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      readyOnOpen: false,
      // Gradium's sessions start with the owner's `setup`, sent on open: nothing is queued.
      queueBeforeOpen: false,
      isMessage: (value): value is GradiumMessage => typeof value.type === 'string',
      messageName: 'a message with a type',
      onOpen: () => events.onOpen(),
      onMessage: (message) => events.onMessage(message),
      onEnd: (end) => events.onClosed(gradiumError(options.provider, end)),
      log: events.log,
    })
  }

  /** True once the owner marked it ready, until it is gone. */
  get isReady(): boolean {
    return this.socket.wasReady && !this.socket.isEnded
  }

  /** True once it was marked ready, even after it is gone. */
  get wasReady(): boolean {
    return this.socket.wasReady
  }

  /** True until it is gone. */
  get alive(): boolean {
    return !this.socket.isEnded
  }

  /** True once it is gone or closing: new audio needs a new socket. */
  get isOver(): boolean {
    return this.socket.isOver
  }

  /** Stops the connection timeout: the session is usable. */
  markReady(): void {
    this.socket.markReady()
  }

  /** Sends one message, if the socket is open. */
  send(message: object): void {
    this.socket.send(message)
  }

  /** Closes it (a clean close, or a cut while it is still opening); no `onClosed` follows. */
  dispose(): void {
    this.socket.dispose()
  }
}

function gradiumError(provider: GradiumProvider, end: JsonSocketEnd): GradiumError {
  switch (end.kind) {
    case 'timeout':
      return new GradiumError(provider, `not ready after ${end.timeoutMs} ms (connection timeout)`)
    case 'refused': {
      const detail = errorBodyMessage(end.body) || end.statusMessage || 'connection refused'
      return new GradiumError(provider, `HTTP ${end.status} ${detail}`, { status: end.status })
    }
    case 'error':
      return new GradiumError(provider, `connection error: ${end.error.message}`)
    case 'closed':
      return new GradiumError(
        provider,
        `connection closed (code ${end.code}${end.reason ? ` ${end.reason}` : ''})`
      )
    case 'ended':
      return end.reason as GradiumError
  }
}

/** The error of an in-band `{"type":"error","message","code"}`. */
export function inBandError(provider: GradiumProvider, message: GradiumMessage): GradiumError {
  const code = typeof message.code === 'number' ? message.code : undefined
  const text =
    typeof message.message === 'string'
      ? message.message
      : JSON.stringify(message.message ?? message)
  return new GradiumError(provider, `error${code !== undefined ? ` ${code}` : ''} ${text}`, {
    code,
  })
}
