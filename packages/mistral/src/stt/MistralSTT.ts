import { STT } from '@openmic/core'
import { UtteranceQueue, type QueuedUtterance } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { MistralSTTError } from './errors.js'
import { RealtimeSocket } from './realtime-socket.js'
import { realtimeURL } from './realtime-url.js'
import {
  DEFAULT_MISTRAL_STT_MODEL,
  MISTRAL_STT_SAMPLE_RATE,
  type MistralSTTOptions,
} from './types.js'

/** One user utterance: its audio waiting to be sent, and where it stands. */
interface Utterance extends QueuedUtterance {
  /** The socket its audio went to; its death fails the utterance. */
  socket?: RealtimeSocket
  flushed: boolean
  /** The text of its `transcription.text.delta`s so far. */
  text: string
}

/**
 * Speech-to-text with Mistral's Voxtral realtime transcription, over one WebSocket session per
 * instance (`wss://api.mistral.ai/v1/audio/transcriptions/realtime`).
 *
 * The socket opens when the instance is created, so the first utterance finds it warm. Audio is
 * sent as it arrives, at 16 kHz as it is; the end of an utterance sends `input_audio.flush` (the
 * session stays open for the next one). `transcription.text.delta`s become `Partial` (the
 * utterance's text so far) and `transcription.done` becomes `Transcript`.
 *
 * What goes wrong becomes `Failed` at once, naming MistralSTT: a refused connection (with its HTTP
 * status, e.g. `MistralSTT: HTTP 401 Unauthorized`), an in-band `error`, a socket that dies while an
 * utterance is in flight, no transcript `transcriptionTimeoutMs` after the flush. After any close,
 * 1000 included, the next utterance opens a new session; no audio chunk is ever sent twice. A
 * malformed server message is logged and ignored.
 *
 * @example
 * const stt = new MistralSTT({ apiKey: process.env.MISTRAL_API_KEY })
 * stt.on('Partial', (text) => console.log('...', text))
 * stt.on('Transcript', (text) => console.log('User:', text))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class MistralSTT extends STT {
  private socket?: RealtimeSocket
  /** Utterances not finished, in order: audio is sent, and transcripts matched, in this order. */
  private readonly utterances = new UtteranceQueue<Utterance>()
  private destroyed = false
  private readonly connectionTimeoutMs: number
  private readonly transcriptionTimeoutMs: number

  constructor(private readonly options: MistralSTTOptions = {}) {
    super()
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? 5000
    this.transcriptionTimeoutMs = options.transcriptionTimeoutMs ?? 4000
    this.connect()
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) return
    const utterance: Utterance = {
      queue: [],
      sentAudio: false,
      ended: false,
      flushed: false,
      text: '',
    }
    this.utterances.follow(utterance, audio, { changed: () => this.pump() })
  }

  override destroy(): void {
    this.destroyed = true
    this.utterances.close()
    this.socket?.close()
    this.socket = undefined
    super.destroy()
  }

  /** Sends what the utterances hold, in order, opening a session when there is none. */
  private pump(): void {
    if (this.destroyed) return
    // Nothing was said: no request at all.
    for (const utterance of this.utterances.silent()) {
      this.utterances.finish(utterance, () => this.emitFinalTranscript(''))
    }
    if (!this.utterances.items.some((u) => !u.flushed && (u.queue.length > 0 || u.ended))) return
    if (!this.socket) this.connect()
    const socket = this.socket
    if (!socket?.isReady) return
    for (const utterance of this.utterances.items) {
      if (utterance.flushed) continue
      if (utterance.queue.length > 0) {
        utterance.socket = socket
        utterance.sentAudio = true
        for (const chunk of utterance.queue.splice(0)) socket.sendAudio(chunk)
      }
      // The next utterance's audio waits for this one's end, so that flushes cut at the right place.
      if (!utterance.ended) return
      utterance.flushed = true
      socket.flush()
      utterance.timer = setTimeout(() => {
        const error = new MistralSTTError(
          `no transcript ${this.transcriptionTimeoutMs} ms after the utterance ended`
        )
        this.failSocket(socket, error)
      }, this.transcriptionTimeoutMs)
    }
  }

  private connect(): void {
    if (this.destroyed) return
    const { options } = this
    const socket: RealtimeSocket = new RealtimeSocket(
      {
        url: realtimeURL(options.serverURL, options.model ?? DEFAULT_MISTRAL_STT_MODEL),
        apiKey: options.apiKey ?? process.env.MISTRAL_API_KEY ?? '',
        session: {
          audio_format: {
            encoding: options.encoding ?? 'pcm_s16le',
            sample_rate: MISTRAL_STT_SAMPLE_RATE,
          },
          ...(options.targetStreamingDelayMs !== undefined
            ? { target_streaming_delay_ms: options.targetStreamingDelayMs }
            : {}),
        },
        connectionTimeoutMs: this.connectionTimeoutMs,
      },
      {
        onReady: () => {
          this.log('Session ready')
          this.pump()
        },
        onDelta: (text) => {
          const utterance = this.current(socket)
          if (!utterance) return
          utterance.text += text
          this.emit('Partial', utterance.text)
        },
        onDone: (text) => {
          const utterance = this.utterances.items.find((u) => u.socket === socket && u.flushed)
          if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
          this.utterances.finish(utterance, () => this.emitFinalTranscript(text))
        },
        // The session's state after an error is unknown: it is dropped, so that no later
        // transcript is matched to the wrong utterance.
        onError: (error) => this.failSocket(socket, error),
        onClosed: (error) => this.failSocket(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    this.socket = socket
  }

  /** The utterance the next text of `socket` belongs to: the oldest one whose audio went there. */
  private current(socket: RealtimeSocket): Utterance | undefined {
    return this.utterances.items.find((u) => u.socket === socket)
  }

  /**
   * Drops a session: every utterance whose audio went to it (or, when it never opened, that waits
   * for it) fails with `error`; utterances whose audio is all still here go to the next session.
   */
  private failSocket(socket: RealtimeSocket, error: MistralSTTError): void {
    if (this.destroyed) return
    const neverOpened = !socket.opened
    socket.close()
    if (this.socket === socket) this.socket = undefined
    const failed = this.utterances.items.filter(
      (u) => u.socket === socket || (neverOpened && !u.flushed && (u.queue.length > 0 || u.ended))
    )
    if (failed.length === 0) this.log('Session ended:', error.message)
    for (const utterance of failed)
      this.utterances.finish(utterance, () => this.emit('Failed', error))
    // Audio of an utterance that began after the failure gets a new session. After a refused
    // connection, only new audio tries again (no loop of refused connections).
    if (!neverOpened) this.pump()
  }
}
