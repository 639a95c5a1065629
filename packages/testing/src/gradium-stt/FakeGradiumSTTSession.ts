import type { IncomingHttpHeaders } from 'node:http'
import type { WebSocket } from 'ws'
import { FakeSocketSession } from '../net/fake-socket-session.js'
import { playSocketStep } from '../net/socket-steps.js'
import type { FakeGradiumASRPart } from './types.js'
import { parseClientMessage } from '../net/client-message.js'

/** A message the client sent, parsed (or its text when it was not JSON). */
export type FakeGradiumClientMessage = { type?: string; [key: string]: unknown } | string

/** One flushed utterance: the `flush_id` the client sent and the audio it closed. */
export interface FakeGradiumFlush {
  flushId: unknown
  audio: Buffer
}

/**
 * One WebSocket session of the fake Gradium ASR: what the client sent on it (every message, the
 * setup, the audio of each flush) and handles to act on it mid-session.
 */
export class FakeGradiumSTTSession extends FakeSocketSession {
  /** Every client message, in order. */
  readonly messages: FakeGradiumClientMessage[] = []
  /** Messages that arrived before `ready` was sent (Gradium wants none but the setup). */
  readonly messagesBeforeReady: FakeGradiumClientMessage[] = []
  /** The decoded audio of each `audio` message, in order. */
  readonly audio: Buffer[] = []
  /** Each flush: its id and the audio since the flush before. */
  readonly flushes: FakeGradiumFlush[] = []
  private pending: Buffer[] = []
  private replying: Promise<void> = Promise.resolve()
  private ready = false

  constructor(
    socket: WebSocket,
    /** The upgrade request's headers (`x-api-key`...). */
    readonly headers: IncomingHttpHeaders,
    private readonly handlers: {
      /** The reply to a flush. */
      onFlush(session: FakeGradiumSTTSession): FakeGradiumASRPart[]
      /** Called on the setup: sends `ready` (or an error) when it should. */
      onSetup(session: FakeGradiumSTTSession): void
    }
  ) {
    super(socket)
    socket.on('message', (data) => this.receive(String(data)))
  }

  /** The `setup` message, once received. */
  get setup(): { type: 'setup'; [key: string]: unknown } | undefined {
    return this.messages.find(
      (message): message is { type: 'setup' } =>
        typeof message === 'object' && message.type === 'setup'
    )
  }

  /** The setup's `json_config`, parsed (Gradium's clients send it as a JSON string). */
  get jsonConfig(): unknown {
    const config = this.setup?.json_config
    return typeof config === 'string' ? JSON.parse(config) : config
  }

  /** Sends `ready`, as Gradium does once the setup is accepted. */
  sendReady(): void {
    this.ready = true
    this.send({
      type: 'ready',
      request_id: `fake-${Math.random().toString(36).slice(2)}`,
      model_name: String(this.setup?.model_name ?? 'default'),
      sample_rate: 24000,
      frame_size: 1920,
      delay_in_frames: 10,
      text_stream_names: [],
    })
  }

  /** Sends an in-band error, then closes with its code (as Gradium does). */
  sendError(message: string, code = 1011, keepOpen = false): void {
    this.send({ type: 'error', message, code })
    if (!keepOpen) this.close(code >= 1000 && code < 5000 ? code : 1011, message.slice(0, 100))
  }

  /** Plays the parts scripted for one flush. */
  async play(parts: FakeGradiumASRPart[], flushId: unknown): Promise<void> {
    let startS = 0
    for (const part of parts) {
      if (!this.open) return
      switch (part.type) {
        case 'text':
          this.send({ type: 'text', text: part.text, start_s: part.startS ?? startS, stream_id: 0 })
          startS = (part.startS ?? startS) + 0.4
          break
        case 'end_text':
          this.send({ type: 'end_text', stop_s: part.stopS ?? startS, stream_id: 0 })
          break
        case 'step':
          this.send({
            type: 'step',
            vad: [0.5, 1, 2].map((horizon_s) => ({
              horizon_s,
              inactivity_prob: part.inactivityProb ?? 0.9,
            })),
            step_idx: 0,
            step_duration_s: 0.08,
            total_duration_s: startS,
          })
          break
        case 'flushed':
          this.send({ type: 'flushed', flush_id: flushId })
          break
        case 'error':
          this.sendError(part.message, part.code, part.keepOpen)
          break
        default:
          if (!(await playSocketStep(this, part))) return
      }
    }
  }

  private receive(text: string): void {
    const message = parseClientMessage<FakeGradiumClientMessage>(text)
    const first = this.messages.length === 0
    this.messages.push(message)
    if (!this.ready) this.messagesBeforeReady.push(message)
    const type = typeof message === 'object' && message !== null ? message.type : undefined
    // Like Gradium: the setup comes first, or the connection is closed.
    if (first && type !== 'setup') return this.sendError('Expected a setup message first', 1008)
    switch (type) {
      case 'setup':
        return this.handlers.onSetup(this)
      case 'audio': {
        const audio = Buffer.from(String((message as { audio?: unknown }).audio ?? ''), 'base64')
        this.audio.push(audio)
        this.pending.push(audio)
        return
      }
      case 'flush': {
        const flushId = (message as { flush_id?: unknown }).flush_id
        this.flushes.push({ flushId, audio: Buffer.concat(this.pending) })
        this.pending = []
        // Utterances are answered in order: a reply waits for the one before.
        const parts = this.handlers.onFlush(this)
        this.replying = this.replying.then(() => this.play(parts, flushId))
        return
      }
      case 'end_of_stream':
        this.replying = this.replying.then(() => {
          this.send({ type: 'end_of_stream' })
          this.close(1000)
        })
        return
      default:
        return this.sendError(`Unknown message type ${String(type)}`, 1008)
    }
  }
}
