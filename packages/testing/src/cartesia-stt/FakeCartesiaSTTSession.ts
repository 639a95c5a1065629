import type { IncomingHttpHeaders } from 'node:http'
import type { WebSocket } from 'ws'
import { FakeSocketSession } from '../net/fake-socket-session.js'
import { playSocketStep } from '../net/socket-steps.js'
import type { FakeCartesiaSTTPart } from './types.js'

/**
 * One WebSocket session of the fake Cartesia STT: what the client sent on it (audio frames, text
 * commands, the audio of each finalized utterance) and handles to act on it.
 */
export class FakeCartesiaSTTSession extends FakeSocketSession {
  /** Every binary audio frame, in order. */
  readonly audio: Buffer[] = []
  /** Every text frame (`finalize`, `close`...), in order. */
  readonly commands: string[] = []
  /** The audio of each finalized utterance: the frames between two `finalize`s, joined. */
  readonly finalizes: Buffer[] = []
  private pending: Buffer[] = []
  private replying: Promise<void> = Promise.resolve()

  constructor(
    socket: WebSocket,
    /** The upgrade request's headers (`authorization`, `cartesia-version`...). */
    readonly headers: IncomingHttpHeaders,
    /** The upgrade request's URL (`?model=...&encoding=...&sample_rate=...`). */
    readonly url: URL,
    private readonly onFinalize: () => FakeCartesiaSTTPart[]
  ) {
    super(socket)
    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.hear(Buffer.from(data as Buffer))
      this.command(String(data))
    })
  }

  /** A query parameter of the connection (`model`, `encoding`, `sample_rate`, `language`). */
  param(name: string): string | null {
    return this.url.searchParams.get(name)
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
