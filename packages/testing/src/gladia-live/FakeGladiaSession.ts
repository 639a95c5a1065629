import { audioMs } from '@openmic/core/provider'
import type { WebSocket } from 'ws'
import { playSocketStep, type SocketStepTarget } from '../net/socket-steps.js'
import type { FakeGladiaPart } from './types.js'
import { parseClientMessage } from '../net/client-message.js'

/** A text message the client sent, parsed (or its text when it was not JSON). */
export type FakeGladiaClientMessage = { type?: string; [key: string]: unknown } | string

type MessagesConfig = Record<string, boolean | undefined>

/**
 * One live session of the fake Gladia API: created by `POST /v2/live`, reached by WebSocket at
 * the URL it answered (again after a disconnect: the real API lets a client resume a session on
 * the same URL). It records what the client sent (its init body, every audio byte in order,
 * text messages, `stop_recording`), acknowledges audio with byte ranges like the real API, and
 * plays the parts scripted for it.
 */
export class FakeGladiaSession {
  /** Every audio chunk received (binary frames and `audio_chunk` JSON, decoded), in order. */
  readonly chunks: Buffer[] = []
  /** Every text message the client sent, in order. */
  readonly messages: FakeGladiaClientMessage[] = []
  /** How many WebSockets connected to this session (more than one after a resume). */
  connections = 0
  /** True once the client sent `stop_recording`. */
  stopped = false
  /** True once the session ended (`end` part played, or closed by the fake). */
  ended = false
  /** The close code of the last socket, once it closed (1006 for a reset). */
  closeCode?: number
  private socket?: WebSocket
  private parts?: FakeGladiaPart[]
  private bytes = 0
  private onStop?: () => void
  private readonly stoppedPromise: Promise<void>
  private socketClosed?: () => void

  constructor(
    /** The session id (also its token in the WebSocket URL). */
    readonly id: string,
    /** The `POST /v2/live` body that created it. */
    readonly init: any,
    private readonly nextReply: () => FakeGladiaPart[],
    private readonly acknowledges = true
  ) {
    this.stoppedPromise = new Promise((resolve) => (this.onStop = resolve))
  }

  /** All the audio received, joined. */
  get audio(): Buffer {
    return Buffer.concat(this.chunks)
  }

  /** True while a socket of the session is open. */
  get open(): boolean {
    return this.socket !== undefined && this.socket.readyState === this.socket.OPEN
  }

  /** Attaches a client socket (the first, or one resuming the session). */
  attach(socket: WebSocket): void {
    this.connections++
    this.socket = socket
    socket.on('message', (data, isBinary) => {
      if (socket !== this.socket) return
      if (isBinary) this.receiveAudio(toBuffer(data))
      else this.receiveText(String(data))
    })
    socket.on('close', (code) => {
      if (socket !== this.socket) return
      this.closeCode = code
      this.socketClosed?.()
    })
    socket.on('error', () => {})
  }

  /** Sends one server message (JSON-encoded), stamped with the session id and a date. */
  send(message: Record<string, unknown>): void {
    if (!this.open) return
    this.socket!.send(
      JSON.stringify({ session_id: this.id, created_at: new Date().toISOString(), ...message })
    )
  }

  /** Closes the session's socket with a close frame (default 1000). */
  close(code = 1000, reason = ''): void {
    if (this.open) this.socket!.close(code, reason)
  }

  /** Cuts the session's TCP connection without a close frame. */
  reset(): void {
    this.socket?.terminate()
  }

  /** Resolves once the current socket is closed. */
  async closed(): Promise<void> {
    if (!this.socket || this.socket.readyState === this.socket.CLOSED) return
    await new Promise<void>((resolve) => (this.socketClosed = resolve))
  }

  private get config(): MessagesConfig {
    return (this.init?.messages_config ?? {}) as MessagesConfig
  }

  /** Whether the session asked for a kind of message (defaults as assumed for the API). */
  private wants(kind: string, byDefault: boolean): boolean {
    return this.config[kind] ?? byDefault
  }

  private receiveAudio(chunk: Buffer): void {
    if (this.stopped) {
      return this.send({
        type: 'audio_chunk',
        acknowledged: false,
        error: { message: 'Audio received after stop_recording' },
        data: null,
      })
    }
    this.chunks.push(chunk)
    const start = this.bytes
    this.bytes += chunk.length
    if (this.acknowledges && this.wants('receive_acknowledgments', true)) {
      this.send({
        type: 'audio_chunk',
        acknowledged: true,
        error: null,
        data: {
          byte_range: [start, this.bytes],
          time_range: [seconds(start), seconds(this.bytes)],
        },
      })
    }
    this.startReply()
  }

  private receiveText(text: string): void {
    const message = parseClientMessage<FakeGladiaClientMessage>(text)
    this.messages.push(message)
    if (typeof message !== 'object' || message === null) return
    if (message.type === 'audio_chunk') {
      const data = message.data as { chunk?: string } | undefined
      return this.receiveAudio(Buffer.from(String(data?.chunk ?? ''), 'base64'))
    }
    if (message.type === 'stop_recording' && !this.stopped) {
      this.stopped = true
      if (this.wants('receive_acknowledgments', true)) {
        this.send({
          type: 'stop_recording',
          acknowledged: true,
          error: null,
          data: { recording_duration: seconds(this.bytes), recording_left_to_process: 0 },
        })
      }
      this.startReply()
      this.onStop?.()
    }
  }

  /** Plays the session's reply, once, from its first audio (or its stop, with no audio). */
  private startReply(): void {
    if (this.parts) return
    this.parts = this.nextReply()
    void this.play(this.parts)
  }

  private async play(parts: FakeGladiaPart[]): Promise<void> {
    for (const part of parts) {
      if (part.type === 'stop') {
        await this.stoppedPromise
        continue
      }
      if (!this.open) return
      switch (part.type) {
        case 'partial':
        case 'final':
          if (!this.wants(`receive_${part.type}_transcripts`, part.type === 'final')) break
          this.send({ type: 'transcript', data: transcriptData(part.text, part.type === 'final') })
          break
        case 'speech_start':
        case 'speech_end':
          if (this.wants('receive_speech_events', true)) {
            this.send({ type: part.type, data: { time: seconds(this.bytes), channel: 0 } })
          }
          break
        case 'end':
          this.end()
          return
        case 'error':
          this.send({
            type: 'audio_chunk',
            acknowledged: false,
            error: { message: part.message },
            data: null,
          })
          break
        // The script goes on for a client that resumes the session on a new socket.
        case 'close':
          this.close(part.code ?? 1000, part.reason)
          break
        case 'reset':
          this.reset()
          break
        default:
          if (!(await playSocketStep(this.frames, part))) return
      }
    }
  }

  /** Frames as they are, without the session id and date that `send` stamps. */
  private readonly frames: SocketStepTarget = {
    send: (message) => this.socket!.send(JSON.stringify(message)),
    sendRaw: (text) => this.socket!.send(text),
    close: (code, reason) => this.close(code, reason),
    reset: () => this.reset(),
  }

  /** The messages that end a session after `stop_recording`, then its close. */
  private end(): void {
    this.ended = true
    const lifecycle = this.wants('receive_lifecycle_events', false)
    const post = this.wants('receive_post_processing_events', true)
    if (lifecycle)
      this.send({ type: 'end_recording', data: { recording_duration: seconds(this.bytes) } })
    if (post) this.send({ type: 'post_transcript', data: { full_transcript: '', utterances: [] } })
    if (post) this.send({ type: 'post_final_transcript', data: { transcription: null } })
    if (lifecycle) this.send({ type: 'end_session' })
    this.close(1000)
  }
}

/** Micdrop's audio (PCM16 16 kHz mono): bytes to seconds. */
function seconds(bytes: number): number {
  return audioMs(bytes) / 1000
}

function transcriptData(text: string, isFinal: boolean) {
  const words = text.split(/\s+/).filter(Boolean)
  return {
    id: `utt-${Math.random().toString(36).slice(2, 10)}`,
    is_final: isFinal,
    utterance: {
      text,
      start: 0,
      end: words.length * 0.3,
      confidence: 0.95,
      channel: 0,
      language: 'en',
      words: words.map((word, i) => ({
        word,
        start: i * 0.3,
        end: i * 0.3 + 0.25,
        confidence: 0.95,
      })),
    },
  }
}

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[])
  return Buffer.from(data as ArrayBuffer)
}
