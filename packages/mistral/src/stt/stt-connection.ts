import type {
  RealtimeTranscriptionError,
  TranscriptionStreamDone,
  TranscriptionStreamTextDelta,
} from '@mistralai/mistralai/extra/realtime'
import {
  JsonSocket,
  describeSocketEnd,
  socketEndError,
  type JsonSocketEnd,
  type ProviderConnectionEvents,
  type ProviderConnectionOptions,
} from '@openmic/core/provider'
import WebSocket from 'ws'
import { MistralSTTError } from './errors.js'

/** What a {@link MistralSTTConnection} reports to its owner. */
export interface MistralSTTConnectionEvents extends ProviderConnectionEvents<MistralSTTError> {
  /** `session.created` arrived and `session.update` was sent: audio may flow. */
  onReady(): void
  onDelta(text: string): void
  onDone(text: string): void
  /** An in-band `error` message. */
  onError(error: MistralSTTError): void
}

/** How to open one realtime transcription session. */
export interface MistralSTTConnectionOptions extends ProviderConnectionOptions {
  /** Sent in `session.update`, before any audio. */
  session: {
    audio_format: { encoding: string; sample_rate: number }
    target_streaming_delay_ms?: number
  }
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
 * One WebSocket session of Mistral's realtime transcription (the connection of a MistralSTT), on the wire messages the SDK's
 * `RealtimeConnection` uses (typed with its event types). It is used instead of the SDK's client
 * because openmic needs what that client does not give: the HTTP status of a refused upgrade, a
 * `target_streaming_delay_ms` in `session.update`, and an abort of a connection still opening.
 *
 * Like the SDK, it waits for `session.created` before sending anything (Mistral's docs: "Wait for
 * it before you send anything else"), then sends `session.update` before any audio.
 */
export class MistralSTTConnection {
  private readonly socket: JsonSocket<ServerEvent>

  constructor(
    private readonly options: MistralSTTConnectionOptions,
    private readonly events: MistralSTTConnectionEvents
  ) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    this.socket = new JsonSocket<ServerEvent>(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      // The session is usable once `session.created` arrived, not once the socket opened.
      readyOnOpen: false,
      queueBeforeOpen: false,
      onMessage: (event) => this.receive(event),
      onEnd: (end) =>
        events.onClosed(
          socketEndError(end, (message, details) => new MistralSTTError(message, details), describe)
        ),
      log: events.log,
    })
  }

  /** True once `session.created` arrived, even after the socket is gone. */
  get wasReady(): boolean {
    return this.socket.wasReady
  }

  /** True once the socket is gone (or going). */
  get isOver(): boolean {
    return this.socket.isOver
  }

  /** Appends audio to the session's input. */
  sendAudio(audio: Buffer): void {
    this.send({ type: 'input_audio.append', audio: audio.toString('base64') })
  }

  /**
   * Ends the utterance (`input_audio.flush`): the server transcribes what it holds and answers
   * `transcription.done`.
   * Never `input_audio.end`, which ends the whole session.
   */
  sendEnd(): void {
    this.send({ type: 'input_audio.flush' })
  }

  /** Closes the session (a clean close, or a cut while it is still opening). */
  dispose(): void {
    this.socket.dispose()
  }

  private send(message: object): void {
    if (this.socket.wasReady && !this.socket.isEnded) this.socket.send(message)
  }

  private receive(event: ServerEvent): void {
    switch (event.type) {
      case 'session.created':
        if (this.socket.wasReady) return
        this.socket.markReady()
        this.socket.send({ type: 'session.update', session: this.options.session })
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
            { code: typeof code === 'number' ? String(code) : undefined }
          )
        )
      }
      default:
        // session.updated, transcription.language, transcription.segment...: not needed.
        return
    }
  }
}

/** How an end reads: a session that never came is said so (the socket may have opened). */
function describe(end: JsonSocketEnd): string {
  if (end.kind === 'timeout') return `no session after ${end.timeoutMs} ms (connection timeout)`
  return describeSocketEnd(end)
}
