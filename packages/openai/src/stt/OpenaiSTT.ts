import {
  MICDROP_AUDIO_FORMAT,
  Resampler,
  StreamingSTT,
  type StreamingUtterance,
} from '@openmic/core/provider'
import type { RealtimeError, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { OpenaiSTTError } from './errors.js'
import { OPENAI_STT_DEFAULTS, type OpenaiSTTOptions } from './options.js'
import { transcriptionURL } from './endpoint.js'
import { REALTIME_SAMPLE_RATE, transcriptionSessionUpdate } from './session-update.js'
import { OpenaiSTTConnection } from './stt-connection.js'

/** The API refuses to commit less than 100 ms of audio: 2400 samples of PCM16 at 24 kHz. */
const MIN_COMMIT_BYTES = 4800

/** One user utterance; its commit becomes a conversation item, whose transcription ends it. */
interface Utterance extends StreamingUtterance<OpenaiSTTConnection> {
  /** The `event_id` of its commit, so an error about that commit finds it. */
  readonly commitEventId: string
  /** The text of its deltas so far. */
  text: string
}

/**
 * Speech-to-text with OpenAI's realtime transcription (`gpt-4o-transcribe` by default), over a
 * WebSocket to `/v1/realtime?intent=transcription`.
 *
 * - The connection opens when the instance is created, so the first utterance does not wait for
 *   a handshake. Audio (PCM16 16 kHz) is resampled to 24 kHz and sent as it arrives; the end of
 *   the stream commits the utterance. An utterance with no audio (or under the API's 100 ms
 *   minimum) gives `Transcript('')` at once, without a request.
 * - Deltas become `Partial` (the utterance's text so far); the final text becomes `Transcript`.
 * - Any error becomes `Failed` at once, with an {@link OpenaiSTTError} naming the status or the
 *   API's code: a refused connection (`OpenaiSTT: HTTP 401 ...`), an in-band `error` event, a failed
 *   transcription, a connection that closes or resets mid-utterance, no connection within
 *   `connectionTimeoutMs`, no transcript within `transcriptionTimeoutMs` of the end of speech (the
 *   connection is then dropped), an audio stream that fails.
 * - After any close (code 1000 included) the next utterance opens a new connection. No audio is
 *   ever sent twice: what was sent on a connection that died is not replayed.
 * - Utterances run one after the other on the connection; one that starts while the previous one
 *   still streams waits (held in memory) until that one is committed. Transcripts are emitted
 *   in the order of the utterances; a `Failed` is emitted as soon as it is known.
 * - `destroy()` closes the connection and clears every timer; nothing is emitted afterwards.
 *
 * @example
 * const stt = new OpenaiSTT({ apiKey: process.env.OPENAI_API_KEY, language: 'fr' })
 * stt.on('Partial', (text) => console.log('…', text))
 * stt.on('Transcript', (text) => console.log('>', text))
 * stt.on('Failed', (error) => console.error(error))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class OpenaiSTT extends StreamingSTT<OpenaiSTTConnection, Utterance> {
  private readonly url: string
  private readonly apiKey: string
  private readonly settings: Required<Omit<OpenaiSTTOptions, 'apiKey' | 'baseURL'>>
  /**
   * Committed utterances whose item the server has not named yet, in commit order (a failed one
   * stays until then, so that its item is not taken for the next utterance's).
   */
  private unnamed: Utterance[] = []
  /** The utterance of each item whose transcription has not ended. */
  private readonly items = new Map<string, Utterance>()
  private commits = 0
  private connections = 0

  constructor(options: OpenaiSTTOptions = {}) {
    const defaults = OPENAI_STT_DEFAULTS
    const transcriptionTimeoutMs = options.transcriptionTimeoutMs ?? defaults.transcriptionTimeoutMs
    super({ providerName: 'openai', transcriptionTimeoutMs, minAudioBytes: MIN_COMMIT_BYTES })
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY
    if (!apiKey) {
      throw new OpenaiSTTError('no API key: pass `apiKey` or set OPENAI_API_KEY')
    }
    this.apiKey = apiKey
    this.url = transcriptionURL(options.baseURL ?? process.env.OPENAI_BASE_URL ?? defaults.baseURL)
    this.settings = {
      model: options.model ?? defaults.model,
      language: options.language ?? defaults.language,
      prompt: options.prompt ?? defaults.prompt,
      connectionTimeoutMs: options.connectionTimeoutMs ?? defaults.connectionTimeoutMs,
      transcriptionTimeoutMs,
    }
    this.start()
  }

  protected newUtterance() {
    return { commitEventId: `openmic_commit_${++this.commits}`, text: '' }
  }

  /** 16 → 24 kHz: the only PCM rate the Realtime API takes. */
  protected override audioFor() {
    return new Resampler({
      fromRate: MICDROP_AUDIO_FORMAT.sampleRate,
      toRate: REALTIME_SAMPLE_RATE,
    })
  }

  protected override sendAudio(connection: OpenaiSTTConnection, chunk: Buffer): void {
    connection.send({ type: 'input_audio_buffer.append', audio: chunk.toString('base64') })
  }

  protected override sendEnd(connection: OpenaiSTTConnection, utterance: Utterance): void {
    this.unnamed.push(utterance)
    connection.send({ type: 'input_audio_buffer.commit', event_id: utterance.commitEventId })
  }

  /** Drops audio in the input buffer, so that it is not committed with the next utterance's. */
  protected override discardAudio(connection: OpenaiSTTConnection): void {
    connection.send({ type: 'input_audio_buffer.clear' })
  }

  protected override audioFailure(error: unknown): OpenaiSTTError {
    return new OpenaiSTTError(`the audio stream failed: ${(error as Error).message}`, {
      cause: error,
    })
  }

  protected timeoutError(timeoutMs: number): OpenaiSTTError {
    return new OpenaiSTTError(`no transcript within ${timeoutMs} ms of the end of the utterance`)
  }

  override destroy(): void {
    this.unnamed = []
    this.items.clear()
    super.destroy()
  }

  protected connect(): OpenaiSTTConnection {
    const sessionEventId = `openmic_session_${++this.connections}`
    const connection: OpenaiSTTConnection = new OpenaiSTTConnection(
      {
        url: this.url,
        apiKey: this.apiKey,
        connectionTimeoutMs: this.settings.connectionTimeoutMs,
        firstEvent: transcriptionSessionUpdate(sessionEventId, this.settings),
      },
      {
        onMessage: (event) => this.handle(connection, sessionEventId, event),
        onClosed: (error) => {
          // Nothing more comes for its items.
          this.unnamed = this.unnamed.filter((u) => u.connection !== connection)
          for (const [id, u] of this.items) if (u.connection === connection) this.items.delete(id)
          this.failConnection(connection, error)
        },
        log: (...message) => this.log(...message),
      }
    )
    return connection
  }

  private handle(
    connection: OpenaiSTTConnection,
    sessionEventId: string,
    event: RealtimeServerEvent
  ): void {
    if (this.destroyed) return
    switch (event.type) {
      case 'input_audio_buffer.committed':
        this.named(connection, event.item_id)
        return
      case 'conversation.item.input_audio_transcription.delta': {
        const utterance = this.named(connection, event.item_id)
        if (!utterance || !this.isWaiting(utterance) || !event.delta) return
        utterance.text += event.delta
        this.partial(utterance.text)
        return
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const utterance = this.named(connection, event.item_id)
        this.items.delete(event.item_id)
        if (utterance) this.complete(utterance, event.transcript ?? '')
        return
      }
      case 'conversation.item.input_audio_transcription.failed': {
        const utterance = this.named(connection, event.item_id)
        this.items.delete(event.item_id)
        if (!utterance) return
        const { message, code, type } = event.error ?? {}
        const error = new OpenaiSTTError(`transcription failed: ${message ?? 'no reason given'}`, {
          code: code ?? undefined,
          type: type ?? undefined,
        })
        this.failUtterance(utterance, error)
        return
      }
      case 'error':
        return this.inBandError(connection, sessionEventId, event.error)
      default:
        return
    }
  }

  /** An `error` event: fails the utterance it is about, at once. */
  private inBandError(
    connection: OpenaiSTTConnection,
    sessionEventId: string,
    details: RealtimeError
  ): void {
    const message = details?.message ?? 'unknown error'
    const code = details?.code ?? undefined
    const type = details?.type ?? undefined
    this.log('Error event:', message)
    if (details?.event_id && details.event_id === sessionEventId) {
      // The session was not configured: every utterance on it would fail or be transcribed
      // wrongly. End the connection (the next utterance opens a new one).
      connection.end(new OpenaiSTTError(`session.update refused: ${message}`, { code, type }))
      return
    }
    const byCommit = this.unnamed.find(
      (u) => u.connection === connection && u.commitEventId === details?.event_id
    )
    // A refused commit makes no item: nothing more will come for it.
    if (byCommit) this.unnamed = this.unnamed.filter((u) => u !== byCommit)
    const target = byCommit ?? this.current(connection)
    if (target) this.failUtterance(target, new OpenaiSTTError(message, { code, type }))
  }

  /**
   * The utterance of an item: the one it was named for, else the oldest commit of the connection
   * not named yet (items are made in commit order), which it now names.
   */
  private named(connection: OpenaiSTTConnection, itemId: string): Utterance | undefined {
    const known = this.items.get(itemId)
    if (known) return known
    const index = this.unnamed.findIndex((u) => u.connection === connection)
    if (index < 0) return undefined
    const [utterance] = this.unnamed.splice(index, 1)
    this.items.set(itemId, utterance!)
    return utterance
  }
}
