import type { ProviderErrorDetails } from '../retry/ProviderError.js'
import { errorBodyMessage } from './error-body-message.js'
import { readRefusedUpgrade, type RefusedUpgrade } from './refused-upgrade.js'

/**
 * The part of a client WebSocket that {@link JsonSocket} uses. `ws`'s `WebSocket` satisfies it, so
 * a provider constructs `new WebSocket(url, { headers })` itself (authentication stays its own)
 * and core does not depend on `ws`.
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the WebSocket standard's values). */
  readonly readyState: number
  /**
   * Listens to `open`, `message` (data), `error` (Error), `close` (code, reason) and
   * `unexpected-response` (request, {@link RefusedUpgrade}).
   */
  on(event: string, listener: (...args: any[]) => void): unknown
  send(data: string): void
  close(code?: number): void
  terminate(): void
}

/** Why a {@link JsonSocket} is over, reported once through `onEnd`. */
export type JsonSocketEnd =
  /** Not open (or not ready, see `readyOnOpen`) within `connectionTimeoutMs`. */
  | { kind: 'timeout'; timeoutMs: number }
  /** The server refused the upgrade; `body` is its text (at most 16 KiB). */
  | { kind: 'refused'; status: number; statusMessage: string; body: string }
  /** The socket failed (DNS, TCP reset, protocol error...). */
  | { kind: 'error'; error: Error }
  /** Either side closed the connection. */
  | { kind: 'closed'; code: number; reason: string }
  /** The owner ended it with {@link JsonSocket.end}; `reason` is what it passed. */
  | { kind: 'ended'; reason: unknown }

/** How a {@link JsonSocket} behaves and whom it tells. */
export interface JsonSocketOptions<M extends object = Record<string, unknown>> {
  /** Until the socket opens (or until {@link JsonSocket.markReady}): past it, it ends with `timeout`. */
  connectionTimeoutMs: number
  /**
   * Whether opening makes the socket ready (stops the connection timeout). Default true; false
   * keeps the timeout running until the owner calls {@link JsonSocket.markReady} (e.g. after a
   * handshake message).
   */
  readyOnOpen?: boolean
  /**
   * Whether messages sent before the socket opens are queued and sent, in order, once it opens.
   * Default true; false drops them.
   */
  queueBeforeOpen?: boolean
  /**
   * Which parsed JSON objects are messages (default: any object that is not an array). Others
   * are logged and ignored.
   */
  isMessage?(value: Record<string, unknown>): value is M & Record<string, unknown>
  /** What a message is, in the log line of one that is not (default `an object`). */
  messageName?: string
  /** The socket opened (before anything queued is sent). */
  onOpen?(): void
  /** A server message that parsed and passed `isMessage`. A throw is logged, never thrown out. */
  onMessage(message: M): void
  /** Called once when the socket is over, whatever ended it (never after `dispose()`). */
  onEnd(end: JsonSocketEnd): void
  log(...message: unknown[]): void
}

const OPEN = 1
const CLOSING = 2
const CLOSED = 3
/** Longest excerpt of an ignored message in the log. */
const MAX_LOGGED = 200

/**
 * JSON over an already-constructed client WebSocket (`M`: the server's messages, `Out`: the
 * client's): a connection timeout, messages queued until
 * it opens, a refused upgrade read into its HTTP status and body, server messages parsed (one
 * that is not JSON or not a message is logged and ignored; a listener that throws is logged, the
 * connection goes on), and one `onEnd` whatever ends it. Once it is over nothing is sent (never
 * replayed on another socket); `dispose()` closes it without a report.
 *
 * @example
 * ```ts
 * const socket = new JsonSocket(new WebSocket(url, { headers: { 'x-api-key': key } }), {
 *   connectionTimeoutMs: 5000,
 *   onMessage: (message) => handle(message),
 *   onEnd: (end) => fail(end),
 *   log: console.warn,
 * })
 * socket.send({ type: 'start' })
 * ```
 */
export class JsonSocket<M extends object = Record<string, unknown>, Out extends object = object> {
  private queue: string[] = []
  private over = false
  private opened = false
  private ready = false
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly ws: WebSocketLike,
    private readonly options: JsonSocketOptions<M>
  ) {
    const timeoutMs = options.connectionTimeoutMs
    this.timer = setTimeout(() => {
      this.timer = undefined
      // The server is unresponsive: cut the connection rather than wait for a closing handshake.
      this.finish({ kind: 'timeout', timeoutMs }, true)
    }, timeoutMs)
    ws.on('open', () => this.opening())
    ws.on('unexpected-response', (_request: unknown, response: RefusedUpgrade) =>
      this.refused(response)
    )
    ws.on('message', (data: unknown) => this.receive(String(data)))
    ws.on('error', (error: Error) => this.finish({ kind: 'error', error }))
    ws.on('close', (code: number, reason: Buffer | string) =>
      this.finish({ kind: 'closed', code, reason: String(reason ?? '') })
    )
  }

  /** True once the socket opened, even after it is over. */
  get wasOpened(): boolean {
    return this.opened
  }

  /** True once it is ready (opened, or marked ready), even after it is over. */
  get wasReady(): boolean {
    return this.ready
  }

  /** Whether it is over (ended or disposed): it reports and sends nothing more. */
  get isEnded(): boolean {
    return this.over
  }

  /** Whether the socket is over or closing (by either side): what comes next needs a new one. */
  get isOver(): boolean {
    return this.over || this.ws.readyState === CLOSING || this.ws.readyState === CLOSED
  }

  /** Stops the connection timeout (with `readyOnOpen: false`, once the handshake is done). */
  markReady(): void {
    this.ready = true
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /**
   * Sends a message as JSON now if open, else once open (or dropped, with
   * `queueBeforeOpen: false`); dropped if the socket is over.
   */
  send(message: Out): void {
    if (this.over) return
    const text = JSON.stringify(message)
    if (this.ws.readyState === OPEN) this.ws.send(text)
    else if (this.options.queueBeforeOpen !== false) this.queue.push(text)
  }

  /** Ends the socket, reporting `{ kind: 'ended', reason }` through `onEnd` (once). */
  end(reason: unknown): void {
    this.finish({ kind: 'ended', reason })
  }

  /** Closes the socket (at once if it is not open) without reporting anything. */
  dispose(): void {
    if (this.over) {
      if (this.ws.readyState === CLOSING) this.ws.terminate()
      return
    }
    this.close(false)
  }

  private finish(end: JsonSocketEnd, cut = false): void {
    if (this.over) return
    this.close(cut)
    this.options.onEnd(end)
  }

  private close(cut: boolean): void {
    this.over = true
    this.queue = []
    clearTimeout(this.timer)
    this.timer = undefined
    if (!cut && this.ws.readyState === OPEN) this.ws.close(1000)
    else this.ws.terminate()
  }

  private opening(): void {
    if (this.over) return
    this.opened = true
    if (this.options.readyOnOpen !== false) this.markReady()
    this.options.onOpen?.()
    const queued = this.queue
    this.queue = []
    for (const text of queued) if (!this.over) this.ws.send(text)
  }

  private refused(response: RefusedUpgrade): void {
    readRefusedUpgrade(response, (refusal) => this.finish({ kind: 'refused', ...refusal }))
  }

  private receive(text: string): void {
    if (this.over) return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.options.log('Ignored a server message that is not JSON:', text.slice(0, MAX_LOGGED))
      return
    }
    const isObject = !!value && typeof value === 'object' && !Array.isArray(value)
    const accept = this.options.isMessage
    if (!isObject || (accept && !accept(value as Record<string, unknown>))) {
      const name = this.options.messageName ?? 'an object'
      this.options.log(`Ignored a server message that is not ${name}:`, text.slice(0, MAX_LOGGED))
      return
    }
    try {
      this.options.onMessage(value as M)
    } catch (error) {
      // A listener of the provider's events threw: log it, the connection goes on.
      this.options.log('Error while handling a server message:', error)
    }
  }
}

/**
 * The text of a {@link JsonSocketEnd} in the wording the providers share: `could not connect
 * within N ms`, `HTTP 401 <message>`, `connection failed: <error>`, `connection closed (code N:
 * reason)`. `bodyMessage` extracts the API's message from a refused upgrade's body (default:
 * {@link errorBodyMessage}).
 */
export function describeSocketEnd(
  end: JsonSocketEnd,
  bodyMessage: (body: string) => string = errorBodyMessage
): string {
  switch (end.kind) {
    case 'timeout':
      return `could not connect within ${end.timeoutMs} ms`
    case 'refused': {
      const message = bodyMessage(end.body) || end.statusMessage || 'connection refused'
      return `HTTP ${end.status} ${message}`
    }
    case 'error':
      return `connection failed: ${end.error.message}`
    case 'closed':
      return `connection closed (code ${end.code}${end.reason ? `: ${end.reason}` : ''})`
    case 'ended':
      return end.reason instanceof Error ? end.reason.message : String(end.reason)
  }
}

/**
 * A provider's error for a {@link JsonSocketEnd}: `create(message, details)` with the text
 * `describe` gives (default {@link describeSocketEnd}) and what the end says besides: the HTTP
 * `status` of a refused upgrade, the `closeCode` of a close, the socket's error as `cause`. A
 * socket the owner ended with an error gives that error back.
 *
 * @example
 * onEnd: (end) => this.failConnection(socket, socketEndError(end, (m, d) => new AcmeSTTError(m, d)))
 */
export function socketEndError<E extends Error>(
  end: JsonSocketEnd,
  create: (message: string, details: ProviderErrorDetails) => E,
  describe: (end: JsonSocketEnd) => string = describeSocketEnd
): E {
  if (end.kind === 'ended' && end.reason instanceof Error) return end.reason as E
  return create(describe(end), {
    status: end.kind === 'refused' ? end.status : undefined,
    closeCode: end.kind === 'closed' ? end.code : undefined,
    cause: end.kind === 'error' ? end.error : undefined,
  })
}
