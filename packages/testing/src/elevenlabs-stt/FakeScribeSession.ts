import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import type { IncomingHttpHeaders } from 'node:http'
import type { WebSocket } from 'ws'
import { playSocketStep } from '../net/socket-steps.js'
import type { FakeScribeSessionRecord, FakeScribeStep } from './types.js'

/**
 * One WebSocket session of the fake Scribe realtime server: sends `session_started`, records
 * every `input_audio_chunk`, and plays the next scripted reply at each commit (in order, a reply
 * waiting for the one before, as the real API answers segments in order).
 */
export class FakeScribeSession implements FakeScribeSessionRecord {
  readonly messages: unknown[] = []
  readonly chunks: Buffer[] = []
  readonly commits: Buffer[] = []
  closed = false
  private pending: Buffer[] = []
  private replying: Promise<void> = Promise.resolve()

  constructor(
    private readonly socket: WebSocket,
    readonly url: URL,
    readonly headers: IncomingHttpHeaders,
    private readonly onCommit: () => FakeScribeStep[]
  ) {
    socket.on('message', (data) => this.receive(String(data)))
    socket.on('close', () => (this.closed = true))
    socket.on('error', () => {})
    const query = url.searchParams
    this.send({
      message_type: 'session_started',
      session_id: `fake_${Math.random().toString(36).slice(2)}`,
      config: {
        sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
        audio_format: query.get('audio_format') ?? 'pcm_16000',
        language_code: query.get('language_code') ?? undefined,
        model_id: query.get('model_id'),
        commit_strategy: query.get('commit_strategy') ?? 'manual',
        include_timestamps: query.get('include_timestamps') === 'true',
      },
    })
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN
  }

  /** Sends one server message, JSON-encoded (a string is sent as it is). */
  send(message: unknown): void {
    if (!this.open) return
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** Closes the socket with a close frame (default 1000). */
  close(code = 1000, reason = ''): void {
    if (this.open) this.socket.close(code, reason)
  }

  /** Cuts the TCP connection without a close frame. */
  reset(): void {
    this.socket.terminate()
  }

  private receive(text: string): void {
    let message: any
    try {
      message = JSON.parse(text)
    } catch {
      this.messages.push(text)
      return this.send({ message_type: 'input_error', error: 'Invalid JSON' })
    }
    this.messages.push(message)
    if (message?.message_type !== 'input_audio_chunk') {
      return this.send({
        message_type: 'input_error',
        error: `Unknown message_type ${String(message?.message_type)}`,
      })
    }
    const audio = Buffer.from(String(message.audio_base_64 ?? ''), 'base64')
    this.chunks.push(audio)
    if (audio.length > 0) this.pending.push(audio)
    if (message.commit !== true) return
    this.commits.push(Buffer.concat(this.pending))
    this.pending = []
    const steps = this.onCommit()
    this.replying = this.replying.then(() => this.play(steps))
  }

  private async play(steps: FakeScribeStep[]): Promise<void> {
    for (const step of steps) {
      if (!this.open) return
      switch (step.type) {
        case 'partial':
          this.send({ message_type: 'partial_transcript', text: step.text })
          break
        case 'committed':
          this.send({ message_type: 'committed_transcript', text: step.text })
          break
        case 'error':
          this.send({ message_type: step.messageType ?? 'error', error: step.error })
          break
        default:
          if (!(await playSocketStep(this, step))) return
      }
    }
  }
}
