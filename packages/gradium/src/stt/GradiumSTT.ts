import {
  MICDROP_AUDIO_FORMAT,
  Resampler,
  StreamingSTT,
  type StreamingUtterance,
} from '@openmic/core/provider'
import { GradiumError } from '../errors.js'
import { speechURL } from '../endpoint.js'
import { GradiumConnection, inBandError, type GradiumMessage } from '../connection.js'
import { GRADIUM_STT_DEFAULTS, type GradiumSTTOptions } from './options.js'

/** One user utterance: its audio waiting to be sent, and where its transcription stands. */
interface Utterance extends StreamingUtterance<GradiumConnection> {
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
export class GradiumSTT extends StreamingSTT<GradiumConnection, Utterance> {
  private flushCount = 0
  private readonly settings: Required<
    Pick<GradiumSTTOptions, 'modelName' | 'inputFormat' | 'connectionTimeoutMs' | 'trailingTextMs'>
  >

  constructor(private readonly options: GradiumSTTOptions = {}) {
    super({
      providerName: 'gradium',
      transcriptionTimeoutMs:
        options.transcriptionTimeoutMs ?? GRADIUM_STT_DEFAULTS.transcriptionTimeoutMs,
      // Gradium's `text` does not say which flush it belongs to: one utterance on the wire at a time.
      oneAtATime: true,
      waitForReady: true,
    })
    this.settings = {
      modelName: options.modelName ?? GRADIUM_STT_DEFAULTS.modelName,
      inputFormat: options.inputFormat ?? GRADIUM_STT_DEFAULTS.inputFormat,
      connectionTimeoutMs: options.connectionTimeoutMs ?? GRADIUM_STT_DEFAULTS.connectionTimeoutMs,
      trailingTextMs: options.trailingTextMs ?? GRADIUM_STT_DEFAULTS.trailingTextMs,
    }
    this.start()
  }

  protected newUtterance() {
    return { flushed: false, texts: [] as string[] }
  }

  /** 16 → 24 kHz, when the announced format is Gradium's 24 kHz PCM. */
  protected override audioFor() {
    if (this.settings.inputFormat === 'pcm_16000') return undefined
    return new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: 24_000 })
  }

  /** Its text was complete at `flushed`: a close while waiting for stragglers loses nothing. */
  protected override completeText(utterance: Utterance): string | undefined {
    return utterance.flushed ? joined(utterance.texts) : undefined
  }

  protected override sendAudio(socket: GradiumConnection, chunk: Buffer): void {
    socket.send({ type: 'audio', audio: chunk.toString('base64') })
  }

  protected override sendEnd(socket: GradiumConnection, utterance: Utterance): void {
    utterance.flushId = String(++this.flushCount)
    socket.send({ type: 'flush', flush_id: utterance.flushId })
  }

  protected timeoutError(timeoutMs: number): GradiumError {
    return new GradiumError(`no flushed ${timeoutMs} ms after the utterance ended`, {
      provider: 'GradiumSTT',
    })
  }

  protected connect(): GradiumConnection {
    const { options, settings } = this
    const socket: GradiumConnection = new GradiumConnection(
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
        onClosed: (error) => this.failConnection(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    return socket
  }

  private receive(socket: GradiumConnection, message: GradiumMessage): void {
    switch (message.type) {
      case 'ready':
        if (socket.wasReady) return
        socket.markReady()
        this.log('Session ready')
        return this.pump()
      case 'text': {
        const head = this.utterances.head
        if (!head || head.connection !== socket || typeof message.text !== 'string') {
          return this.log('Ignored a text segment with no utterance on the wire')
        }
        head.texts.push(message.text)
        this.partial(joined(head.texts))
        return
      }
      case 'flushed': {
        const head = this.utterances.head
        if (!head || head.connection !== socket || String(message.flush_id) !== head.flushId) {
          return this.log('Ignored a flushed with no utterance waiting for it')
        }
        clearTimeout(head.timer)
        head.flushed = true
        if (this.settings.trailingTextMs <= 0) return this.complete(head, joined(head.texts))
        head.timer = setTimeout(
          () => this.complete(head, joined(head.texts)),
          this.settings.trailingTextMs
        )
        return
      }
      case 'error':
        // Gradium closes the session after an error: it is dropped, and its utterance fails.
        return this.failConnection(socket, inBandError('GradiumSTT', message))
      default:
        // step (VAD), end_text (a timestamp only), end_of_stream (the close follows): not needed.
        return
    }
  }
}

/** Gradium's segments joined into one text. */
function joined(texts: string[]): string {
  return texts.join(' ').replace(/\s+/g, ' ').trim()
}
