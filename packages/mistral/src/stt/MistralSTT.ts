import { MICDROP_AUDIO_FORMAT, StreamingSTT, type StreamingUtterance } from '@openmic/core/provider'
import { realtimeURL } from './endpoint.js'
import { MistralSTTError } from './errors.js'
import { DEFAULT_MISTRAL_STT_MODEL, type MistralSTTOptions } from './options.js'
import { MistralSTTConnection } from './stt-connection.js'

/** One user utterance; once its flush was sent, the next `transcription.done` ends it. */
interface Utterance extends StreamingUtterance<MistralSTTConnection> {
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
export class MistralSTT extends StreamingSTT<MistralSTTConnection, Utterance> {
  private readonly connectionTimeoutMs: number

  constructor(private readonly options: MistralSTTOptions = {}) {
    super({
      providerName: 'mistral_ai',
      transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? 4000,
      waitForReady: true,
    })
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? 5000
    this.start()
  }

  protected newUtterance() {
    return { text: '' }
  }

  protected timeoutError(timeoutMs: number): MistralSTTError {
    return new MistralSTTError(`no transcript ${timeoutMs} ms after the utterance ended`)
  }

  protected connect(): MistralSTTConnection {
    const { options } = this
    const socket: MistralSTTConnection = new MistralSTTConnection(
      {
        url: realtimeURL(options.serverURL, options.model ?? DEFAULT_MISTRAL_STT_MODEL),
        apiKey: options.apiKey ?? process.env.MISTRAL_API_KEY ?? '',
        session: {
          audio_format: {
            encoding: options.encoding ?? 'pcm_s16le',
            sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
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
          this.partial(utterance.text)
        },
        onDone: (text) => {
          const utterance = this.ending(socket)
          if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
          this.complete(utterance, text)
        },
        // The session's state after an error is unknown: it is dropped, so that no later
        // transcript is matched to the wrong utterance.
        onError: (error) => this.failConnection(socket, error),
        onClosed: (error) => this.failConnection(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    return socket
  }
}
