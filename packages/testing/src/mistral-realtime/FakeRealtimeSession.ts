import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import type { IncomingHttpHeaders } from 'node:http'
import type { WebSocket } from 'ws'
import { FakeSocketSession } from '../net/fake-socket-session.js'
import { playSocketStep } from '../net/socket-steps.js'
import type { FakeTranscriptionPart } from './types.js'
import { parseClientMessage } from '../net/client-message.js'

/** The session's audio format until the client changes it: Micdrop's, PCM16 16 kHz. */
const AUDIO_FORMAT = {
  encoding: MICDROP_AUDIO_FORMAT.encoding,
  sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
}

/** A message the client sent, parsed (or its text when it was not JSON). */
export type RecordedClientMessage = { type?: string; [key: string]: unknown } | string

/**
 * One WebSocket session of a fake Mistral realtime server: what the client sent on it (every
 * message, the `session.update`s, the audio of each flush) and handles to act on it mid-session.
 */
export class FakeRealtimeSession extends FakeSocketSession {
  /** Every client message, in order. */
  readonly messages: RecordedClientMessage[] = []
  /** Messages that arrived before `session.created` was sent (the real API wants none). */
  readonly messagesBeforeCreated: RecordedClientMessage[] = []
  /** The decoded audio of each `input_audio.append`, in order. */
  readonly appends: Buffer[] = []
  /** The audio of each flushed utterance: the appends between two flushes, joined. */
  readonly flushes: Buffer[] = []
  /** True once the client sent `input_audio.end` (which ends the session). */
  ended = false
  private pending: Buffer[] = []
  private replying: Promise<void> = Promise.resolve()
  private created = false
  private audioStarted = false

  constructor(
    socket: WebSocket,
    /** The upgrade request's headers (`authorization`...). */
    readonly headers: IncomingHttpHeaders,
    /** The upgrade request's URL (path and query, e.g. `?model=...`). */
    readonly url: URL,
    private readonly onFlush: (session: FakeRealtimeSession) => FakeTranscriptionPart[]
  ) {
    super(socket)
    socket.on('message', (data) => this.receive(String(data)))
  }

  /** The `model` query parameter of the connection. */
  get model(): string | null {
    return this.url.searchParams.get('model')
  }

  /** The `session.update` messages received. */
  get sessionUpdates(): Array<{ type: 'session.update'; session: any }> {
    return this.messages.filter(
      (message): message is { type: 'session.update'; session: any } =>
        typeof message === 'object' && message.type === 'session.update'
    )
  }

  /** Sends `session.created`, with the session's defaults. */
  sendSessionCreated(): void {
    this.created = true
    this.send({
      type: 'session.created',
      session: {
        request_id: `fake-${Math.random().toString(36).slice(2)}`,
        model: this.model ?? 'voxtral-mini-transcribe-realtime-2602',
        audio_format: AUDIO_FORMAT,
        target_streaming_delay_ms: null,
      },
    })
  }

  /** Plays the parts scripted for one flush. */
  async play(parts: FakeTranscriptionPart[]): Promise<void> {
    for (const part of parts) {
      if (!this.open) return
      switch (part.type) {
        case 'delta':
          this.send({ type: 'transcription.text.delta', text: part.text })
          break
        case 'done':
          this.send({
            type: 'transcription.done',
            text: part.text,
            model: this.model ?? 'voxtral-mini-transcribe-realtime-2602',
            language: part.language ?? null,
            usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
          })
          break
        case 'error':
          this.send({ type: 'error', error: { message: part.message, code: part.code ?? 400 } })
          break
        default:
          if (!(await playSocketStep(this, part))) return
      }
    }
  }

  private receive(text: string): void {
    const message = parseClientMessage<RecordedClientMessage>(text)
    this.messages.push(message)
    if (!this.created) this.messagesBeforeCreated.push(message)
    if (typeof message !== 'object' || message === null) {
      return this.send({ type: 'error', error: { message: 'Invalid JSON message', code: 400 } })
    }
    switch (message.type) {
      case 'session.update':
        // Like the real API: the session's settings are fixed from the first audio chunk.
        if (this.audioStarted) {
          return this.send({
            type: 'error',
            error: { message: 'Session updates are rejected after audio starts', code: 400 },
          })
        }
        return this.send({
          type: 'session.updated',
          session: {
            request_id: 'fake',
            model: this.model ?? 'voxtral-mini-transcribe-realtime-2602',
            audio_format: AUDIO_FORMAT,
            target_streaming_delay_ms: null,
            ...(message.session as object),
          },
        })
      case 'input_audio.append': {
        this.audioStarted = true
        const audio = Buffer.from(String(message.audio ?? ''), 'base64')
        this.appends.push(audio)
        this.pending.push(audio)
        return
      }
      case 'input_audio.flush': {
        this.flushes.push(Buffer.concat(this.pending))
        this.pending = []
        // Like the real API, utterances are answered in order: a reply waits for the one before.
        const parts = this.onFlush(this)
        this.replying = this.replying.then(() => this.play(parts))
        return
      }
      case 'input_audio.end':
        // The real API answers with the last transcription and ends the session.
        this.ended = true
        return this.close(1000)
    }
  }
}
