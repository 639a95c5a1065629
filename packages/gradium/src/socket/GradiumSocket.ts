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
 * messages both ways, a refused upgrade reported with its HTTP status, a connection timeout that
 * runs until the owner says the socket is ready, and one `onClosed` whatever ends it.
 */
export class GradiumSocket {
  private readonly ws: WebSocket
  private ready = false
  private closed = false
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly options: GradiumSocketOptions,
    private readonly events: GradiumSocketEvents
  ) {
    this.ws = new WebSocket(options.url, { headers: { 'x-api-key': options.apiKey } })
    this.timer = setTimeout(
      () =>
        this.end(
          new GradiumError(
            options.provider,
            `not ready after ${options.connectionTimeoutMs} ms (connection timeout)`
          )
        ),
      options.connectionTimeoutMs
    )
    this.ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk.slice(0, 4096)))
      const refuse = () => {
        const status = res.statusCode ?? 0
        const detail = bodyMessage(body) || res.statusMessage || 'connection refused'
        this.end(new GradiumError(options.provider, `HTTP ${status} ${detail}`, { status }))
      }
      res.once('end', refuse)
      res.once('error', refuse)
    })
    this.ws.on('open', () => {
      if (!this.closed) this.events.onOpen()
    })
    this.ws.on('message', (data) => this.receive(String(data)))
    this.ws.on('error', (error) =>
      this.end(new GradiumError(options.provider, `connection error: ${error.message}`))
    )
    this.ws.on('close', (code, reason) =>
      this.end(
        new GradiumError(
          options.provider,
          `connection closed (code ${code}${reason.length ? ` ${String(reason)}` : ''})`
        )
      )
    )
  }

  /** True once the owner marked it ready, until it is gone. */
  get isReady(): boolean {
    return this.ready && !this.closed
  }

  /** True once it was marked ready, even after it is gone. */
  get wasReady(): boolean {
    return this.ready
  }

  /** True until it is gone. */
  get alive(): boolean {
    return !this.closed
  }

  /** Stops the connection timeout: the session is usable. */
  markReady(): void {
    this.ready = true
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** Sends one message, if the socket is open. */
  send(message: object): void {
    if (!this.closed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message))
  }

  /** Closes it (a clean close, or a cut while it is still opening); no `onClosed` follows. */
  close(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000)
    else this.ws.terminate()
  }

  private receive(text: string): void {
    if (this.closed) return
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch {
      return this.events.log('Ignored a message that is not JSON:', text.slice(0, 200))
    }
    if (
      typeof message !== 'object' ||
      message === null ||
      typeof (message as any).type !== 'string'
    )
      return this.events.log('Ignored a message with no type:', text.slice(0, 200))
    this.events.onMessage(message as GradiumMessage)
  }

  private end(error: GradiumError): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    this.ws.terminate()
    this.events.onClosed(error)
  }
}

/** The message of an error body (`{"message"}`, `{"detail"}`, `{"error":{"message"}}`, text). */
function bodyMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, any>
    const message = parsed.message ?? parsed.detail ?? parsed.error?.message
    if (message !== undefined)
      return typeof message === 'string' ? message : JSON.stringify(message)
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return body.trim().slice(0, 200)
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
