import type { IncomingMessage } from 'node:http'
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { WebSocket } from 'ws'
import { OpenaiSTTError } from './OpenaiSTTError.js'

export interface RealtimeSocketOptions {
  url: string
  apiKey: string
  connectionTimeoutMs: number
  /** Sent first once the socket opens, before anything queued. */
  firstEvent: RealtimeClientEvent
  onEvent(event: RealtimeServerEvent): void
  /** Called once when the socket is over, whatever ended it (never after `dispose()`). */
  onEnd(error: OpenaiSTTError): void
  log(...message: unknown[]): void
}

/** Longest error body read from a refused upgrade. */
const MAX_ERROR_BODY = 16_384

/**
 * One WebSocket to the Realtime API. Events sent before it opens are queued and sent once, in
 * order, when it opens; once it is over nothing is sent (never replayed on another socket).
 * Server messages that are not JSON events are logged and ignored.
 */
export class RealtimeSocket {
  private readonly ws: WebSocket
  private queue: string[] = []
  private over = false
  private readonly openTimer: NodeJS.Timeout

  constructor(private readonly options: RealtimeSocketOptions) {
    this.queue.push(JSON.stringify(options.firstEvent))
    this.ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    this.openTimer = setTimeout(() => {
      this.end(new OpenaiSTTError(`could not connect within ${options.connectionTimeoutMs} ms`))
    }, options.connectionTimeoutMs)
    this.ws.on('open', () => this.flush())
    this.ws.on('unexpected-response', (_req, res) => this.refused(res))
    this.ws.on('message', (data) => this.receive(data.toString()))
    this.ws.on('error', (error) => {
      this.end(new OpenaiSTTError(`connection failed: ${error.message}`, { cause: error }))
    })
    this.ws.on('close', (code, reason) => {
      const why = reason.length > 0 ? `: ${reason.toString()}` : ''
      this.end(new OpenaiSTTError(`connection closed (code ${code}${why})`, { closeCode: code }))
    })
  }

  /** Whether the socket is closed or closing (by either side): a new utterance needs a new one. */
  get isOver(): boolean {
    return (
      this.over ||
      this.ws.readyState === WebSocket.CLOSING ||
      this.ws.readyState === WebSocket.CLOSED
    )
  }

  /** Sends an event now if open, else once open; dropped if the socket is over. */
  send(event: RealtimeClientEvent): void {
    if (this.over) return
    const text = JSON.stringify(event)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text)
    else this.queue.push(text)
  }

  /** Ends the socket with this error (reported through `onEnd`). */
  end(error: OpenaiSTTError): void {
    if (this.over) return
    this.close()
    this.options.onEnd(error)
  }

  /** Closes the socket (at once if it is not open) without reporting anything. */
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
    const queued = this.queue
    this.queue = []
    for (const text of queued) this.ws.send(text)
  }

  private refused(res: IncomingMessage): void {
    const status = res.statusCode ?? 0
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_ERROR_BODY) chunks.push(chunk)
    })
    const done = () => {
      const { message, code, type } = parseErrorBody(Buffer.concat(chunks).toString('utf8'))
      const text = `HTTP ${status}${message ? ` ${message}` : ''}`
      this.end(new OpenaiSTTError(text, { status, code, type }))
    }
    res.once('end', done)
    res.once('error', done)
  }

  private receive(text: string): void {
    let event: RealtimeServerEvent
    try {
      event = JSON.parse(text)
    } catch {
      this.options.log('Ignored a server message that is not JSON:', text.slice(0, 200))
      return
    }
    if (!event || typeof event !== 'object' || typeof event.type !== 'string') {
      this.options.log('Ignored a server message that is not an event:', text.slice(0, 200))
      return
    }
    try {
      this.options.onEvent(event)
    } catch (error) {
      // A listener of the STT's events threw: log it, the connection goes on.
      this.options.log('Error while handling', event.type, error)
    }
  }
}

function parseErrorBody(body: string): { message?: string; code?: string; type?: string } {
  try {
    const error = JSON.parse(body)?.error
    if (error && typeof error === 'object') {
      return {
        message: typeof error.message === 'string' ? error.message : undefined,
        code: typeof error.code === 'string' ? error.code : undefined,
        type: typeof error.type === 'string' ? error.type : undefined,
      }
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  const text = body.trim().slice(0, 200)
  return { message: text || undefined }
}
