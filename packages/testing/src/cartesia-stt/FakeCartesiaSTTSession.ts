import type { IncomingHttpHeaders } from 'node:http'
import type { WebSocket } from 'ws'
import { playSocketStep } from '../net/socket-steps.js'
import type { FakeCartesiaSTTPart } from './types.js'

/**
 * One WebSocket session of the fake Cartesia STT: what the client sent on it (audio frames, text
 * commands, the audio of each finalized utterance) and handles to act on it.
 */
export class FakeCartesiaSTTSession {
  /** Every binary audio frame, in order. */
  readonly audio: Buffer[] = []
  /** Every text frame (`finalize`, `close`...), in order. */
  readonly commands: string[] = []
  /** The audio of each finalized utterance: the frames between two `finalize`s, joined. */
  readonly finalizes: Buffer[] = []
  /** The close code once closed (1006 for a reset). */
  closeCode?: number
  /** Resolves when the socket is closed, whoever closed it. */
  readonly closed: Promise<void>
  private pending: Buffer[] = []
  private replying: Promise<void> = Promise.resolve()
  private markClosed!: () => void

  constructor(
    private readonly socket: WebSocket,
    /** The upgrade request's headers (`authorization`, `cartesia-version`...). */
    readonly headers: IncomingHttpHeaders,
    /** The upgrade request's URL (`?model=...&encoding=...&sample_rate=...`). */
    readonly url: URL,
    private readonly onFinalize: () => FakeCartesiaSTTPart[]
  ) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve))
    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.hear(Buffer.from(data as Buffer))
      this.command(String(data))
    })
    socket.on('close', (code) => {
      this.closeCode = code
      this.markClosed()
    })
    socket.on('error', () => {})
  }

  /** A query parameter of the connection (`model`, `encoding`, `sample_rate`, `language`). */
  param(name: string): string | null {
    return this.url.searchParams.get(name)
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN
  }

  /** Sends one server message (JSON-encoded). */
  send(event: unknown): void {
    if (this.open) this.socket.send(JSON.stringify(event))
  }

  /** Sends text as one frame, as it is. */
  sendRaw(text: string): void {
    if (this.open) this.socket.send(text)
  }

  /** Closes the socket with a close frame (default 1000). */
  close(code = 1000, reason = ''): void {
    if (this.open) this.socket.close(code, reason)
  }

  /** Cuts the TCP connection without a close frame. */
  reset(): void {
    this.socket.terminate()
  }

  /** Plays the parts scripted for one finalize. */
  async play(parts: FakeCartesiaSTTPart[]): Promise<void> {
    const requestId = 'fake-request'
    for (const part of parts) {
      if (!this.open) return
      switch (part.type) {
        case 'transcript':
          this.send({
            type: 'transcript',
            request_id: requestId,
            is_final: part.isFinal,
            text: part.text,
            ...(part.isFinal ? { language: 'en', duration: 0.5 } : {}),
          })
          break
        case 'flush_done':
          this.send({ type: 'flush_done', request_id: requestId })
          break
        case 'error':
          this.send({
            type: 'error',
            status_code: part.status ?? 400,
            title: 'Fake error',
            message: part.message,
            error_code: part.code ?? 'fake_error',
          })
          break
        default:
          if (!(await playSocketStep(this, part))) return
      }
    }
  }

  private hear(chunk: Buffer): void {
    this.audio.push(chunk)
    this.pending.push(chunk)
  }

  private command(text: string): void {
    this.commands.push(text)
    if (text === 'finalize') {
      this.finalizes.push(Buffer.concat(this.pending.splice(0)))
      const parts = this.onFinalize()
      this.replying = this.replying.then(() => this.play(parts))
    } else if (text === 'close') {
      // The API transcribes what it holds, says `done`, and ends the session.
      this.replying = this.replying.then(() => {
        this.send({ type: 'done', request_id: 'fake-request' })
        this.close(1000)
      })
    }
  }
}
