import { StreamingSTT, type StreamingUtterance } from '@openmic/core/provider'
import { Cartesia } from '../cartesia-sdk.js'
import { CARTESIA_BASE_URL } from '../endpoint.js'
import { CartesiaSTTError } from './errors.js'
import type { CartesiaSTTOptions } from './options.js'
import { CartesiaSTTConnection } from './stt-connection.js'

/** One user utterance; once its `finalize` was sent, the next `flush_done` ends it. */
interface Utterance extends StreamingUtterance<CartesiaSTTConnection> {
  /** Its final pieces so far, joined verbatim (Cartesia's deltas carry their own spaces). */
  finals: string
  /** The last `Partial` emitted, so the same text is not shown twice. */
  partial: string
}

/**
 * Speech-to-text with Cartesia's Ink realtime transcription, manual-finalize mode
 * (`wss://api.cartesia.ai/stt/websocket`), through the official SDK, over one session per
 * instance opened when it is created, so the first utterance finds it warm.
 *
 * Audio is sent as it arrives, as binary PCM16 16 kHz frames; the end of an utterance sends
 * `finalize` (the session stays open for the next one). Interim transcripts become `Partial` (the
 * utterance's text so far); the final pieces of the utterance are joined into one `Transcript`
 * when Cartesia says `flush_done`, followed by `TranscriptEnd`.
 *
 * What goes wrong becomes `Failed` at once, naming CartesiaSTT and the status or code: a refused
 * connection (`CartesiaSTT: 401 Invalid API key`), an in-band `error`, a session that dies while
 * an utterance is in flight, no `flush_done` `transcriptionTimeoutMs` after the finalize. After any
 * close (1000 included: Cartesia closes idle sessions) the next utterance opens a new session; no
 * audio chunk is ever sent twice. A malformed server message is logged and ignored.
 *
 * @example
 * const stt = new CartesiaSTT({ apiKey: process.env.CARTESIA_API_KEY, language: 'en' })
 * stt.on('Partial', (text) => console.log('...', text))
 * stt.on('Transcript', (text) => console.log('User:', text))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class CartesiaSTT extends StreamingSTT<CartesiaSTTConnection, Utterance> {
  /** The SDK client sessions are opened with. */
  private readonly cartesia: Cartesia
  private readonly connectionTimeoutMs: number

  constructor(private readonly options: CartesiaSTTOptions = {}) {
    super({
      providerName: 'cartesia',
      transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? 4000,
    })
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? 5000
    this.cartesia = new Cartesia({
      apiKey: options.apiKey ?? process.env.CARTESIA_API_KEY ?? '',
      baseURL: options.baseURL ?? CARTESIA_BASE_URL,
      maxRetries: 0,
    })
    this.start()
  }

  protected newUtterance() {
    return { finals: '', partial: '' }
  }

  protected timeoutError(timeoutMs: number): CartesiaSTTError {
    return new CartesiaSTTError(`no transcript ${timeoutMs} ms after the utterance ended`)
  }

  protected connect(): CartesiaSTTConnection {
    const session: CartesiaSTTConnection = new CartesiaSTTConnection(
      { ...this.options, client: this.cartesia, connectionTimeoutMs: this.connectionTimeoutMs },
      {
        onTranscript: (text, isFinal) => {
          const utterance = this.current(session)
          if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
          if (isFinal) utterance.finals += text
          const soFar = (isFinal ? utterance.finals : utterance.finals + text).trim()
          if (!soFar || soFar === utterance.partial) return
          utterance.partial = soFar
          this.partial(soFar)
        },
        onFlushDone: () => {
          const utterance = this.ending(session)
          if (!utterance) return this.log('Ignored a flush_done with no utterance waiting for it')
          this.complete(utterance, utterance.finals.trim())
        },
        // The session's state after an error is unknown: it is dropped, so that no later
        // transcript is matched to the wrong utterance.
        onError: (error) => this.failConnection(session, error),
        onClosed: (error) => this.failConnection(session, error),
        log: (...message) => this.log(...message),
      }
    )
    return session
  }
}
