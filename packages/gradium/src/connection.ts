import {
  JsonSocket,
  describeSocketEnd,
  socketEndError,
  type JsonSocketEnd,
  type ProviderConnectionEvents,
  type ProviderConnectionOptions,
} from '@openmic/core/provider'
import WebSocket from 'ws'
import { GradiumError, type GradiumProvider } from './errors.js'

/** A message Gradium sent, parsed: its `type` and whatever else it carries. */
export interface GradiumMessage {
  type: string
  [key: string]: unknown
}

/** What a {@link GradiumConnection} reports to its owner. */
export interface GradiumConnectionEvents extends ProviderConnectionEvents<GradiumError> {
  /** The socket is open: the owner sends its first `setup`. */
  onOpen(): void
  /** A well-formed server message (a malformed one is logged and dropped). */
  onMessage(message: GradiumMessage): void
}

/**
 * How to open one Gradium WebSocket; its `connectionTimeoutMs` runs until
 * {@link GradiumConnection.markReady}.
 */
export interface GradiumConnectionOptions extends ProviderConnectionOptions {
  provider: GradiumProvider
}

/**
 * One WebSocket to a Gradium speech endpoint (the connection of a GradiumSTT or a GradiumTTS), authenticated with the `x-api-key` header: JSON
 * messages both ways (core's {@link JsonSocket}), a refused upgrade reported with its HTTP status,
 * a connection timeout that runs until the owner says the socket is ready, and one `onClosed`
 * whatever ends it.
 */
export class GradiumConnection {
  private readonly socket: JsonSocket<GradiumMessage>

  constructor(options: GradiumConnectionOptions, events: GradiumConnectionEvents) {
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
      onEnd: (end) =>
        events.onClosed(
          socketEndError(
            end,
            (message, details) =>
              new GradiumError(message, { ...details, provider: options.provider }),
            describe
          )
        ),
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

/** How an end reads: the session is ready at Gradium's `ready`, not when the socket opens. */
function describe(end: JsonSocketEnd): string {
  if (end.kind === 'timeout') return `not ready after ${end.timeoutMs} ms (connection timeout)`
  return describeSocketEnd(end)
}

/** The error of an in-band `{"type":"error","message","code"}`. */
export function inBandError(provider: GradiumProvider, message: GradiumMessage): GradiumError {
  const code = typeof message.code === 'number' ? message.code : undefined
  const text =
    typeof message.message === 'string'
      ? message.message
      : JSON.stringify(message.message ?? message)
  return new GradiumError(`error${code !== undefined ? ` ${code}` : ''} ${text}`, {
    provider,
    code: code === undefined ? undefined : String(code),
  })
}
