import { WebSocket } from 'ws'
import { readRefusal } from './refused-upgrade.js'

/** Why a {@link JsonSocket} is over. */
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
 * One WebSocket to the ElevenLabs API, authenticated with `xi-api-key`, speaking JSON. Messages
 * sent before it opens are queued and sent once, in order, when it opens; once it is over nothing
 * is sent (never replayed on another socket). A server message that is not a JSON object is
 * logged and ignored; an error thrown while handling one is logged, never thrown out.
 */
export class JsonSocket {
  private readonly ws: WebSocket
  private queue: string[] = []
  private over = false
  private opened = false
  private readonly openTimer: NodeJS.Timeout

  constructor(private readonly options: JsonSocketOptions) {
    this.ws = new WebSocket(options.url, { headers: { 'xi-api-key': options.apiKey } })
    this.openTimer = setTimeout(() => {
      this.end({ message: `could not connect within ${options.connectionTimeoutMs} ms` })
    }, options.connectionTimeoutMs)
    this.ws.on('open', () => this.flush())
    this.ws.on('unexpected-response', (_req, res) =>
      readRefusal(res, (status, message) =>
        this.end({ message: `HTTP ${status} ${message}`, status })
      )
    )
    this.ws.on('message', (data) => this.receive(String(data)))
    this.ws.on('error', (error) => this.end({ message: `connection failed: ${error.message}` }))
    this.ws.on('close', (code, reason) => {
      const why = reason.length > 0 ? `: ${reason.toString()}` : ''
      this.end({ message: `connection closed (code ${code}${why})`, closeCode: code })
    })
  }

  /** True once the socket opened, even after it is over. */
  get wasOpened(): boolean {
    return this.opened
  }

  /** Whether the socket is closed or closing (by either side): what comes next needs a new one. */
  get isOver(): boolean {
    return (
      this.over ||
      this.ws.readyState === WebSocket.CLOSING ||
      this.ws.readyState === WebSocket.CLOSED
    )
  }

  /** Sends a message now if open, else once open; dropped if the socket is over. */
  send(message: object): void {
    if (this.over) return
    const text = JSON.stringify(message)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text)
    else this.queue.push(text)
  }

  /** Ends the socket with this reason (reported through `onEnd`). */
  end(end: SocketEnd): void {
    if (this.over) return
    this.close()
    this.options.onEnd(end)
  }

  /** Closes the socket without reporting anything. */
  dispose(): void {
    if (this.over) {
      if (this.ws.readyState === WebSocket.CLOSING) this.ws.terminate()
      return
    }
    this.close()
  }

  private close(): void {
    this.over = true
    this.queue = []
    clearTimeout(this.openTimer)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000)
    else this.ws.terminate()
  }

  private flush(): void {
    clearTimeout(this.openTimer)
    if (this.over) return
    this.opened = true
    const queued = this.queue
    this.queue = []
    for (const text of queued) this.ws.send(text)
  }

  private receive(text: string): void {
    if (this.over) return
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch {
      this.options.log('Ignored a server message that is not JSON:', text.slice(0, 200))
      return
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      this.options.log('Ignored a server message that is not an object:', text.slice(0, 200))
      return
    }
    try {
      this.options.onMessage(message as Record<string, unknown>)
    } catch (error) {
      // A listener of the class's events threw: log it, the connection goes on.
      this.options.log('Error while handling a server message:', error)
    }
  }
}
