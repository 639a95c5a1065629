import { STT } from '@openmic/core'
import { Resampler, UtteranceQueue, isSilent, type QueuedUtterance } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { GradiumError } from '../errors.js'
import { speechURL } from '../socket/endpoint.js'
import { GradiumSocket, inBandError, type GradiumMessage } from '../socket/GradiumSocket.js'
import { GRADIUM_STT_DEFAULTS, type GradiumSTTOptions } from './types.js'

/** Sample rate of an openmic call's audio. */
const CALL_SAMPLE_RATE = 16_000

/** One user utterance: its audio waiting to be sent, and where its transcription stands. */
interface Utterance extends QueuedUtterance {
  /** The session its audio went to; its death fails the utterance. */
  socket?: GradiumSocket
  /** The `flush_id` sent at its end. */
  flushId?: string
  /** Its `flushed` came: its text is complete but for what `trailingTextMs` may still bring. */
  flushed: boolean
  /** Its `text` segments so far (every one is final in Gradium's protocol). */
  readonly texts: string[]
}

/**
 * Speech-to-text with Gradium's streaming ASR, over one WebSocket session per instance
 * (`wss://api.gradium.ai/api/speech/asr`, or a region's host; `x-api-key`).
 *
 * The socket opens when the instance is created and sends `setup`; audio waits for the server's
 * `ready`, then flows as it arrives (base64 `audio` messages, PCM16 16 kHz as it is by default).
 * The end of an utterance sends `flush` with a new `flush_id`: the session stays open for the next
 * one. Each `text` segment makes a `Partial` (the utterance's segments so far, joined by spaces);
 * the matching `flushed` (plus `trailingTextMs` for text still on its way) makes one `Transcript`
 * of all of them, then `TranscriptEnd`.
 *
 * What goes wrong becomes `Failed` at once, naming GradiumSTT: a refused connection (with its HTTP
 * status), an in-band `error` (with its code), a socket that dies while an utterance is in flight,
 * no `flushed` `transcriptionTimeoutMs` after the end. After any close, 1000 included, the next
 * utterance opens a new session; no audio chunk is ever sent twice. A malformed server message is
 * logged and ignored.
 *
 * @example
 * const stt = new GradiumSTT({ apiKey: process.env.GRADIUM_API_KEY })
 * stt.on('Partial', (text) => console.log('...', text))
 * stt.on('Transcript', (text) => console.log('User:', text))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class GradiumSTT extends STT {
  private socket?: GradiumSocket
  /** Utterances not finished, in order: only the first one's audio is on the wire. */
  private readonly utterances = new UtteranceQueue<Utterance>()
  private flushCount = 0
  private destroyed = false
  private readonly settings: Required<
    Pick<
      GradiumSTTOptions,
      | 'modelName'
      | 'inputFormat'
      | 'connectionTimeoutMs'
      | 'transcriptionTimeoutMs'
      | 'trailingTextMs'
    >
  >

  constructor(private readonly options: GradiumSTTOptions = {}) {
    super()
    this.settings = {
      modelName: options.modelName ?? GRADIUM_STT_DEFAULTS.modelName,
      inputFormat: options.inputFormat ?? GRADIUM_STT_DEFAULTS.inputFormat,
      connectionTimeoutMs: options.connectionTimeoutMs ?? GRADIUM_STT_DEFAULTS.connectionTimeoutMs,
      transcriptionTimeoutMs:
        options.transcriptionTimeoutMs ?? GRADIUM_STT_DEFAULTS.transcriptionTimeoutMs,
      trailingTextMs: options.trailingTextMs ?? GRADIUM_STT_DEFAULTS.trailingTextMs,
    }
    this.connect()
  }

  /** Each utterance's text comes whole at its `flushed`, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) return
    // 16 → 24 kHz, when the announced format is Gradium's 24 kHz PCM.
    const resampler =
      this.settings.inputFormat === 'pcm_16000'
        ? undefined
        : new Resampler({ fromRate: CALL_SAMPLE_RATE, toRate: 24_000 })
    const utterance: Utterance = {
      queue: [],
      sentAudio: false,
      ended: false,
      flushed: false,
      texts: [],
    }
    this.utterances.follow(utterance, audio, {
      prepare: (chunk) => (resampler ? resampler.write(chunk) : Buffer.from(chunk)),
      tail: () => resampler?.end(),
      changed: () => this.pump(),
    })
  }

  override destroy(): void {
    this.destroyed = true
    this.utterances.close()
    this.socket?.close()
    this.socket = undefined
    super.destroy()
  }

  /**
   * Sends what the first utterance holds, opening a session when there is none. The next
   * utterance's audio waits until this one has its transcript, so that every `text` segment
   * belongs to the one utterance on the wire.
   */
  private pump(): void {
    if (this.destroyed) return
    let head = this.utterances.head
    // Nothing was said: no request at all.
    while (head && isSilent(head)) {
      this.finish(head, '')
      head = this.utterances.head
    }
    if (!head || head.flushId !== undefined) return
    if (!this.socket) this.connect()
    const socket = this.socket
    if (!socket?.isReady) return
    if (head.queue.length > 0) {
      head.socket = socket
      head.sentAudio = true
      for (const chunk of head.queue.splice(0)) {
        socket.send({ type: 'audio', audio: chunk.toString('base64') })
      }
    }
    if (!head.ended) return
    const flushId = String(++this.flushCount)
    head.flushId = flushId
    socket.send({ type: 'flush', flush_id: flushId })
    head.timer = setTimeout(() => {
      const error = new GradiumError(
        'GradiumSTT',
        `no flushed ${this.settings.transcriptionTimeoutMs} ms after the utterance ended`
      )
      this.failSocket(socket, error)
    }, this.settings.transcriptionTimeoutMs)
  }

  private connect(): void {
    if (this.destroyed) return
    const { options, settings } = this
    const socket: GradiumSocket = new GradiumSocket(
      {
        provider: 'GradiumSTT',
        url: speechURL('asr', options.baseURL, options.region),
        apiKey: options.apiKey ?? process.env.GRADIUM_API_KEY ?? '',
        connectionTimeoutMs: settings.connectionTimeoutMs,
      },
      {
        onOpen: () => {
          const jsonConfig = {
            ...(options.language !== undefined ? { language: options.language } : {}),
            ...options.jsonConfig,
          }
          socket.send({
            type: 'setup',
            model_name: settings.modelName,
            input_format: settings.inputFormat,
            // Gradium's own clients send the settings as a JSON string.
            ...(Object.keys(jsonConfig).length > 0
              ? { json_config: JSON.stringify(jsonConfig) }
              : {}),
          })
        },
        onMessage: (message) => this.receive(socket, message),
        onClosed: (error) => this.failSocket(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    this.socket = socket
  }

  private receive(socket: GradiumSocket, message: GradiumMessage): void {
    switch (message.type) {
      case 'ready':
        if (socket.wasReady) return
        socket.markReady()
        this.log('Session ready')
        return this.pump()
      case 'text': {
        const head = this.utterances.head
        if (!head || head.socket !== socket || typeof message.text !== 'string') {
          return this.log('Ignored a text segment with no utterance on the wire')
        }
        head.texts.push(message.text)
        this.emit('Partial', joined(head.texts))
        return
      }
      case 'flushed': {
        const head = this.utterances.head
        if (!head || head.socket !== socket || String(message.flush_id) !== head.flushId) {
          return this.log('Ignored a flushed with no utterance waiting for it')
        }
        clearTimeout(head.timer)
        head.flushed = true
        if (this.settings.trailingTextMs <= 0) return this.finish(head, joined(head.texts))
        head.timer = setTimeout(
          () => this.finish(head, joined(head.texts)),
          this.settings.trailingTextMs
        )
        return
      }
      case 'error':
        // Gradium closes the session after an error: it is dropped, and its utterance fails.
        return this.failSocket(socket, inBandError('GradiumSTT', message))
      default:
        // step (VAD), end_text (a timestamp only), end_of_stream (the close follows): not needed.
        return
    }
  }

  /**
   * Drops a session: the utterance whose audio went to it (or, when it never became ready, the
   * one waiting for it) fails with `error`; later utterances go to the next session.
   */
  private failSocket(socket: GradiumSocket, error: GradiumError): void {
    if (this.destroyed) return
    const neverReady = !socket.wasReady
    socket.close()
    if (this.socket === socket) this.socket = undefined
    const head = this.utterances.head
    const failed =
      head &&
      (head.socket === socket ||
        (neverReady && head.flushId === undefined && (head.queue.length > 0 || head.ended)))
    if (!failed) this.log('Session ended:', error.message)
    // Its text was complete at `flushed`: a close while waiting for stragglers loses nothing.
    else if (head.flushed) this.finish(head, joined(head.texts))
    else this.fail(head, error)
    // After a refused connection, only an utterance that can fail in turn tries again, or new
    // audio: never a loop of refused connections.
    if (!neverReady || failed) this.pump()
  }

  private finish(utterance: Utterance, text: string): void {
    if (!this.utterances.finish(utterance, () => this.emitFinalTranscript(text))) return
    this.pump()
  }

  private fail(utterance: Utterance, error: GradiumError): void {
    this.utterances.finish(utterance, () => this.emit('Failed', error))
  }
}

/** Gradium's segments joined into one text. */
function joined(texts: string[]): string {
  return texts.join(' ').replace(/\s+/g, ' ').trim()
}
