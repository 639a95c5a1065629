import WebSocket from 'ws'
import {
  errorBodyMessage,
  readRefusedUpgrade,
  type ProviderConnectionEvents,
} from '@openmic/core/provider'
import { liveSessionURL } from './endpoint.js'
import { GladiaSTTError } from './errors.js'
import type { GladiaServerMessage } from './messages.js'
import type { ResolvedGladiaSTTOptions } from './options.js'
import type { GladiaLiveSettings } from './options.js'

/** What a {@link GladiaSTTConnection} reports to its owner. */
export interface GladiaSTTConnectionEvents extends ProviderConnectionEvents<GladiaSTTError> {
  /** A `transcript` with `is_final: false`: the text of Gladia's current utterance so far. */
  onPartial(text: string): void
  /** A `transcript` with `is_final: true`: one of Gladia's utterances, finished. */
  onFinal(text: string): void
  /** After `sendEnd()`: every final transcript of the audio was sent (called once). */
  onEnded(): void
}

/** How to open a {@link GladiaSTTConnection}: the STT's options, and the session's body. */
export interface GladiaSTTConnectionOptions extends ResolvedGladiaSTTOptions {
  /** The body of `POST /v2/live`. */
  body: GladiaLiveSettings
}

/** Close codes after which the socket is opened again on the same session (as `@gladiaio/sdk`). */
function resumable(code: number): boolean {
  return (code >= 1002 && code <= 4399) || code >= 4500
}

/** Statuses of `POST /v2/live` worth another attempt. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/**
 * One live session of Gladia's API, the connection of one utterance: `POST /v2/live`, then a
 * WebSocket to the URL it answered.
 * Audio given before the socket is open waits, and is sent once it opens. Every audio byte is
 * kept until Gladia acknowledges it (`audio_chunk` with its byte range): when the socket drops
 * (a close code Gladia's SDK also resumes on), it opens again on the same URL, up to `maxRetry`
 * times, and sends only what was not acknowledged (an acknowledged byte is never sent again), so
 * Gladia keeps the session's context. `sendEnd()` sends `stop_recording`, the protocol's end of the
 * audio: Gladia transcribes what remains without waiting for more audio, sends the last final
 * transcript, then `end_recording`.
 */
export class GladiaSTTConnection {
  /** Audio not acknowledged yet, in order, with its offset in the session's audio. */
  private unacked: Array<{ start: number; data: Buffer }> = []
  private total = 0
  private ws?: WebSocket
  private url?: string
  /** Fails the session if it is not open in time (creation, then each resume). */
  private deadline?: ReturnType<typeof setTimeout>
  /** The wait before a retry or a resume. */
  private wait?: ReturnType<typeof setTimeout>
  private readonly abort = new AbortController()
  private stopping = false
  /** Gladia acknowledged `stop_recording`: a close 1000 from now on ends the session normally. */
  private stopAcknowledged = false
  private done = false
  private opened = false
  private attempts = 0

  constructor(
    private readonly options: GladiaSTTConnectionOptions,
    private readonly events: GladiaSTTConnectionEvents
  ) {
    this.arm('no session', options.connectionTimeoutMs)
    void this.create()
  }

  /** True once its WebSocket opened, even after the session is over. */
  get wasReady(): boolean {
    return this.opened
  }

  /** True once the session was stopped, ended, failed or closed: it takes no more audio. */
  get isOver(): boolean {
    return this.done || this.stopping
  }

  /** Sends audio (whole PCM16 samples) now, or once the socket is open; kept until acknowledged. */
  sendAudio(chunk: Buffer): void {
    if (this.isOver || chunk.length === 0) return
    const data = Buffer.from(chunk)
    this.unacked.push({ start: this.total, data })
    this.total += data.length
    if (this.isOpen) this.ws!.send(data)
  }

  /** Ends the audio (`stop_recording`); `onEnded` follows the last final transcript. */
  sendEnd(): void {
    if (this.isOver) return
    this.stopping = true
    if (this.isOpen) this.ws!.send(JSON.stringify({ type: 'stop_recording' }))
  }

  /** Closes everything: the request, the socket, the timers. Nothing is reported afterwards. */
  dispose(): void {
    this.done = true
    clearTimeout(this.deadline)
    clearTimeout(this.wait)
    this.abort.abort()
    const ws = this.ws
    this.ws = undefined
    if (!ws) return
    ws.removeAllListeners()
    ws.on('error', () => {})
    if (ws.readyState === WebSocket.OPEN) ws.close(1000)
    else ws.terminate()
  }

  private get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN
  }

  private async create(): Promise<void> {
    const { baseURL, apiKey, region, maxRetry, retryDelayMs } = this.options
    const url = liveSessionURL(baseURL, region)
    for (let attempt = 0; ; attempt++) {
      let failure: GladiaSTTError
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-gladia-key': apiKey },
          body: JSON.stringify(this.options.body),
          signal: this.abort.signal,
        })
        const text = await response.text()
        if (this.done) return
        if (response.ok) {
          const session = parseSession(text)
          if (!session)
            return this.fail(new GladiaSTTError(`no session URL in ${text.slice(0, 200)}`))
          this.url = session.url
          this.events.log('Session', session.id)
          return this.connect()
        }
        const detail = errorBodyMessage(text) || response.statusText
        failure = new GladiaSTTError(`${response.status} ${detail}`, { status: response.status })
        if (!retryable(response.status)) return this.fail(failure)
      } catch (error) {
        if (this.done) return
        failure = new GladiaSTTError(`session creation failed: ${(error as Error).message}`, {
          cause: error,
        })
      }
      if (attempt >= maxRetry) return this.fail(failure)
      this.events.log(`${failure.message}; retrying in ${retryDelayMs} ms`)
      // The connection timeout covers the whole creation, retries included.
      await new Promise<void>((resolve) => {
        this.wait = setTimeout(resolve, retryDelayMs)
        this.abort.signal.addEventListener('abort', () => resolve(), { once: true })
      })
      if (this.done) return
    }
  }

  /** Opens the WebSocket on the session's URL (again, to resume it). */
  private connect(): void {
    if (this.done || !this.url) return
    const ws = new WebSocket(this.url)
    this.ws = ws
    ws.on('unexpected-response', (_req, res) =>
      readRefusedUpgrade(res, ({ status, statusMessage, body }) => {
        const detail = errorBodyMessage(body) || statusMessage || 'connection refused'
        this.fail(new GladiaSTTError(`WebSocket ${status} ${detail}`, { status }))
      })
    )
    ws.on('open', () => {
      if (ws !== this.ws) return
      this.opened = true
      clearTimeout(this.deadline)
      // The audio Gladia has not acknowledged: all of it on the first connection, the rest on a resume.
      for (const { data } of this.unacked) ws.send(data)
      if (this.stopping) ws.send(JSON.stringify({ type: 'stop_recording' }))
    })
    ws.on('message', (data, isBinary) => {
      if (ws === this.ws && !isBinary) this.receive(String(data))
    })
    ws.on('error', (error) => {
      if (ws === this.ws) this.events.log('WebSocket error:', error.message)
    })
    ws.on('close', (code, reason) => {
      if (ws === this.ws) this.closed(code, String(reason))
    })
  }

  private closed(code: number, reason: string): void {
    if (this.done) return
    this.ws = undefined
    // After stop_recording, Gladia closes with 1000 once the session is over.
    if (this.stopAcknowledged && code === 1000) return this.end()
    const detail = `connection closed (code ${code}${reason ? ` ${reason}` : ''})`
    if (!resumable(code) || this.attempts >= this.options.maxRetry) {
      return this.fail(new GladiaSTTError(detail, { closeCode: code }))
    }
    this.attempts++
    this.events.log(`${detail}; resuming the session (attempt ${this.attempts})`)
    this.wait = setTimeout(() => {
      this.arm(`${detail}, and no new connection`, this.options.connectionTimeoutMs)
      this.connect()
    }, this.options.retryDelayMs)
  }

  private receive(text: string): void {
    let message: GladiaServerMessage
    try {
      message = JSON.parse(text) as GladiaServerMessage
    } catch {
      return this.events.log('Ignored a message that is not JSON:', text.slice(0, 200))
    }
    switch (message?.type) {
      case 'transcript': {
        const value = message.data?.utterance?.text
        const text = typeof value === 'string' ? value.trim() : ''
        if (message.data?.is_final) this.events.onFinal(text)
        else if (text) this.events.onPartial(text)
        return
      }
      case 'audio_chunk':
      case 'stop_recording':
        if (message.acknowledged === false) {
          const detail = errorBodyMessage(message.error) || 'not acknowledged'
          return this.fail(new GladiaSTTError(detail))
        }
        if (message.type === 'audio_chunk') this.acknowledge(message.data?.byte_range?.[1])
        else this.stopAcknowledged = true
        return
      case 'error':
        return this.fail(new GladiaSTTError(errorBodyMessage(message)))
      case 'end_recording':
      case 'post_transcript':
      case 'post_final_transcript':
      case 'end_session':
        // The realtime transcription of the whole audio is over: its last final was sent.
        if (this.stopping) this.end()
        return
      default:
        return
    }
  }

  /** Drops the audio Gladia has, up to byte `end` of the session. */
  private acknowledge(end: number | undefined): void {
    if (typeof end !== 'number') return
    while (this.unacked.length > 0) {
      const first = this.unacked[0]!
      const firstEnd = first.start + first.data.length
      if (firstEnd <= end) this.unacked.shift()
      else {
        if (first.start < end) {
          this.unacked[0] = { start: end, data: first.data.subarray(end - first.start) }
        }
        return
      }
    }
  }

  /** Fails the session unless it is open by `timeoutMs` from now. */
  private arm(what: string, timeoutMs: number): void {
    clearTimeout(this.deadline)
    this.deadline = setTimeout(() => {
      this.fail(new GladiaSTTError(`${what} after ${timeoutMs} ms (connection timeout)`))
    }, timeoutMs)
  }

  private end(): void {
    if (this.done) return
    this.dispose()
    this.events.onEnded()
  }

  private fail(error: GladiaSTTError): void {
    if (this.done) return
    this.dispose()
    this.events.onClosed(error)
  }
}

function parseSession(text: string): { id: string; url: string } | undefined {
  try {
    const session = JSON.parse(text) as { id?: unknown; url?: unknown }
    if (typeof session.url === 'string') return { id: String(session.id ?? ''), url: session.url }
  } catch {
    // Not JSON: reported as no session.
  }
  return undefined
}
