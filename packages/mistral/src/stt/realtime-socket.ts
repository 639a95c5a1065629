import type {
  RealtimeTranscriptionError,
  TranscriptionStreamDone,
  TranscriptionStreamTextDelta,
} from '@mistralai/mistralai/extra/realtime'
import WebSocket from 'ws'
import { errorBodyMessage } from '../errors/error-body-message.js'
import { MistralSTTError } from './errors.js'

/** What a {@link RealtimeSocket} reports to its owner. */
export interface RealtimeSocketEvents {
  /** `session.created` arrived and `session.update` was sent: audio may flow. */
  onReady(): void
  onDelta(text: string): void
  onDone(text: string): void
  /** An in-band `error` message. */
  onError(error: MistralSTTError): void
  /** The socket is gone (refused, timed out, closed by either side, reset); called once. */
  onClosed(error: MistralSTTError): void
  log(...message: unknown[]): void
}

/** How to open one realtime transcription session. */
export interface RealtimeSocketOptions {
  url: string
  apiKey: string
  session: {
    audio_format: { encoding: string; sample_rate: number }
    target_streaming_delay_ms?: number
  }
  connectionTimeoutMs: number
}

type ServerEvent =
  | TranscriptionStreamTextDelta
  | TranscriptionStreamDone
  | (Omit<RealtimeTranscriptionError, 'error'> & {
      type: 'error'
      error?: { message?: unknown; code?: number }
    })
  | { type: 'session.created' | 'session.updated'; session?: unknown }

/**
 * One WebSocket session of Mistral's realtime transcription, on the wire messages the SDK's
 * `RealtimeConnection` uses (typed with its event types). It is used instead of the SDK's client
 * because openmic needs what that client does not give: the HTTP status of a refused upgrade, a
 * `target_streaming_delay_ms` in `session.update`, and an abort of a connection still opening.
 *
 * Like the SDK, it waits for `session.created` before sending anything (Mistral's docs: "Wait for
 * it before you send anything else"), then sends `session.update` before any audio.
 */
export class RealtimeSocket {
  private readonly ws: WebSocket
  private ready = false
  private closed = false
  private readonly timer: ReturnType<typeof setTimeout>

  constructor(
    private readonly options: RealtimeSocketOptions,
    private readonly events: RealtimeSocketEvents
  ) {
    this.ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    this.timer = setTimeout(
      () =>
        this.end(
          new MistralSTTError(
            `no session after ${options.connectionTimeoutMs} ms (connection timeout)`
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
        const detail = errorBodyMessage(body) || res.statusMessage || 'connection refused'
        this.end(new MistralSTTError(`HTTP ${status} ${detail}`, status))
      }
      res.once('end', refuse)
      res.once('error', refuse)
    })
    this.ws.on('message', (data) => this.receive(String(data)))
    this.ws.on('error', (error) =>
      this.end(new MistralSTTError(`connection error: ${error.message}`))
    )
    this.ws.on('close', (code, reason) =>
      this.end(
        new MistralSTTError(
          `connection closed (code ${code}${reason.length ? ` ${String(reason)}` : ''})`
        )
      )
    )
  }

  /** True once `session.created` arrived, even after the socket is gone. */
  get opened(): boolean {
    return this.ready
  }

  /** True once the session is configured, until the socket is gone. */
  get isReady(): boolean {
    return this.ready && !this.closed
  }

  /** Appends audio to the session's input. */
  sendAudio(audio: Buffer): void {
    this.send({ type: 'input_audio.append', audio: audio.toString('base64') })
  }

  /**
   * Ends the utterance: the server transcribes what it holds and answers `transcription.done`.
   * Never `input_audio.end`, which ends the whole session.
   */
  flush(): void {
    this.send({ type: 'input_audio.flush' })
  }

  /** Closes the session (a clean close, or a cut while it is still opening). */
  close(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000)
    else this.ws.terminate()
  }

  private send(message: object): void {
    if (this.isReady && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message))
  }

  private receive(text: string): void {
    if (this.closed) return
    let event: ServerEvent
    try {
      event = JSON.parse(text) as ServerEvent
    } catch {
      return this.events.log('Ignored a message that is not JSON:', text.slice(0, 200))
    }
    switch (event?.type) {
      case 'session.created':
        if (this.ready) return
        clearTimeout(this.timer)
        this.ws.send(JSON.stringify({ type: 'session.update', session: this.options.session }))
        this.ready = true
        return this.events.onReady()
      case 'transcription.text.delta':
        if (typeof event.text === 'string') this.events.onDelta(event.text)
        return
      case 'transcription.done':
        return this.events.onDone(typeof event.text === 'string' ? event.text : '')
      case 'error': {
        const message = event.error?.message
        const code = event.error?.code
        return this.events.onError(
          new MistralSTTError(
            typeof message === 'string' ? message : JSON.stringify(message ?? event),
            undefined,
            typeof code === 'number' ? code : undefined
          )
        )
      }
      default:
        // session.updated, transcription.language, transcription.segment...: not needed.
        return
    }
  }

  private end(error: MistralSTTError): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.timer)
    this.ws.terminate()
    this.events.onClosed(error)
  }
}
