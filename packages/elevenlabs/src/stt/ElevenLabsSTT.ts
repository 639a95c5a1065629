import {
  MICDROP_AUDIO_FORMAT,
  StreamingSTT,
  webSocketURL,
  type StreamingUtterance,
} from '@openmic/core/provider'
import { ElevenLabsConnection } from '../connection.js'
import { ELEVENLABS_BASE_URL } from '../endpoint.js'
import { ElevenLabsSTTError } from './errors.js'
import {
  ELEVENLABS_STT_DEFAULTS,
  SCRIBE_ERROR_TYPES,
  type ElevenLabsSTTOptions,
} from './options.js'

/** A connection of ElevenLabsSTT (its errors are ElevenLabsSTTErrors). */
type ElevenLabsSTTConnection = ElevenLabsConnection<ElevenLabsSTTError>

/** One user utterance; once its commit was sent, the next `committed_transcript` ends it. */
interface Utterance extends StreamingUtterance<ElevenLabsSTTConnection> {
  /** Committed segments of this utterance (the server may commit before the end, too). */
  readonly segments: string[]
}

/**
 * Speech-to-text with ElevenLabs' Scribe realtime transcription (`scribe_v2_realtime`), over a
 * WebSocket to `/v1/speech-to-text/realtime` with manual commits.
 *
 * - The connection opens when the instance is created, so the first utterance finds it warm.
 *   Audio (PCM16 16 kHz) is sent as it arrives, in whole samples; the end of the utterance sends
 *   the commit (`input_audio_chunk` with `commit: true`). An utterance with no audio gives
 *   `Transcript('')` at once, without a commit.
 * - `partial_transcript` becomes `Partial` (the utterance's text so far); the utterance's
 *   `committed_transcript`s become one `Transcript`, then `TranscriptEnd`.
 * - Any of Scribe's error messages (`auth_error`, `quota_exceeded`, `transcriber_error`,
 *   `rate_limited`, `input_error`...) becomes `Failed` at once, with an {@link ElevenLabsSTTError}
 *   naming its `message_type`; so do a refused connection (`ElevenLabsSTT: HTTP 401 ...`), a
 *   connection that ends mid-utterance, no connection within `connectionTimeoutMs`, and no
 *   transcript within `transcriptionTimeoutMs` of the commit. The session is then dropped.
 * - After any close (1000 included) the next utterance opens a new connection. No audio is ever
 *   sent twice: what went to a connection that died is not replayed. A malformed server message
 *   is logged and ignored.
 * - Utterances run one after the other: one that starts while the previous one still streams is
 *   held in memory until that one is committed.
 * - `destroy()` closes the connection and clears every timer; nothing is emitted afterwards.
 *
 * @example
 * const stt = new ElevenLabsSTT({ apiKey: process.env.ELEVENLABS_API_KEY, language: 'en' })
 * stt.on('Partial', (text) => console.log('…', text))
 * stt.on('Transcript', (text) => console.log('>', text))
 * stt.on('Failed', (error) => console.error(error))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class ElevenLabsSTT extends StreamingSTT<ElevenLabsSTTConnection, Utterance> {
  private readonly url: string
  private readonly apiKey: string
  private readonly connectionTimeoutMs: number

  constructor(options: ElevenLabsSTTOptions = {}) {
    super({
      providerName: 'elevenlabs',
      transcriptionTimeoutMs:
        options.transcriptionTimeoutMs ?? ELEVENLABS_STT_DEFAULTS.transcriptionTimeoutMs,
    })
    const apiKey = options.apiKey ?? process.env.ELEVENLABS_API_KEY
    if (!apiKey) {
      throw new ElevenLabsSTTError('no API key: pass `apiKey` or set ELEVENLABS_API_KEY')
    }
    this.apiKey = apiKey
    const defaults = ELEVENLABS_STT_DEFAULTS
    this.url = webSocketURL(options.baseURL ?? ELEVENLABS_BASE_URL, '/v1/speech-to-text/realtime', {
      model_id: options.modelId ?? defaults.modelId,
      audio_format: 'pcm_16000',
      commit_strategy: 'manual',
      language_code: options.language,
    })
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? defaults.connectionTimeoutMs
    this.start()
  }

  protected newUtterance() {
    return { segments: [] as string[] }
  }

  protected override sendAudio(connection: ElevenLabsSTTConnection, chunk: Buffer): void {
    connection.send(audioChunk(chunk.toString('base64'), false))
  }

  protected override sendEnd(connection: ElevenLabsSTTConnection): void {
    connection.send(audioChunk('', true))
  }

  protected timeoutError(timeoutMs: number): ElevenLabsSTTError {
    return new ElevenLabsSTTError(
      `no transcript within ${timeoutMs} ms of the end of the utterance`
    )
  }

  protected connect(): ElevenLabsSTTConnection {
    const connection: ElevenLabsSTTConnection = new ElevenLabsConnection(
      {
        url: this.url,
        apiKey: this.apiKey,
        connectionTimeoutMs: this.connectionTimeoutMs,
        error: (message, details) => new ElevenLabsSTTError(message, details),
      },
      {
        onMessage: (message) => this.handle(connection, message),
        onClosed: (error) => this.failConnection(connection, error),
        log: (...message) => this.log(...message),
      }
    )
    return connection
  }

  private handle(socket: ElevenLabsSTTConnection, message: Record<string, unknown>): void {
    if (this.destroyed) return
    const type = message.message_type
    const text = typeof message.text === 'string' ? message.text : ''
    if (type === 'partial_transcript') {
      const utterance = this.current(socket)
      if (utterance) this.partial(joinText([...utterance.segments, text]))
      return
    }
    if (type === 'committed_transcript') {
      const utterance = this.current(socket)
      if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
      utterance.segments.push(text)
      if (utterance.endSent) this.complete(utterance, joinText(utterance.segments))
      return
    }
    if (typeof type === 'string' && SCRIBE_ERROR_TYPES.has(type)) {
      const detail = typeof message.error === 'string' ? message.error : JSON.stringify(message)
      // The session's state after an error is unknown: it is dropped, so that no later transcript
      // is matched to the wrong utterance.
      this.failConnection(socket, new ElevenLabsSTTError(`${type}: ${detail}`, { code: type }))
      return
    }
    // session_started, final_transcript (a segment's text before its commit),
    // committed_transcript_with_timestamps (not asked for), committed_transcript_entities,
    // edited_transcript: not needed.
  }
}

/** An `input_audio_chunk` message (a commit is one with no audio and `commit: true`). */
function audioChunk(audioBase64: string, commit: boolean) {
  return {
    message_type: 'input_audio_chunk',
    audio_base_64: audioBase64,
    commit,
    sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
  }
}

function joinText(segments: string[]): string {
  return segments
    .map((segment) => segment.trim())
    .filter(Boolean)
    .join(' ')
}
