import { STT } from '@openmic/core'
import { UtteranceQueue, type QueuedUtterance } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { openJsonSocket, type JsonSocket, type SocketEnd } from '../json-socket.js'
import { ELEVENLABS_BASE_URL, webSocketURL } from '../ws-url.js'
import { ElevenLabsSTTError } from './ElevenLabsSTTError.js'
import {
  ELEVENLABS_STT_DEFAULTS,
  SCRIBE_ERROR_TYPES,
  type ElevenLabsSTTOptions,
} from './options.js'

/** The sample rate of an openmic call's audio, which Scribe takes as it is. */
const SAMPLE_RATE = 16_000

/** One user utterance: its audio waiting to be sent, and where it stands. */
interface Utterance extends QueuedUtterance {
  /** A byte of a sample split across two chunks, waiting for the next one. */
  oddByte?: Buffer
  /** The socket its audio went to; its end fails the utterance. */
  socket?: JsonSocket
  /** The commit was sent: the next `committed_transcript` ends it. */
  committed: boolean
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
export class ElevenLabsSTT extends STT {
  private readonly url: string
  private readonly apiKey: string
  private readonly connectionTimeoutMs: number
  private readonly transcriptionTimeoutMs: number
  private socket: JsonSocket | undefined
  /** Utterances not finished, in order: audio is sent, and transcripts matched, in this order. */
  private readonly utterances = new UtteranceQueue<Utterance>()
  private destroyed = false

  constructor(options: ElevenLabsSTTOptions = {}) {
    super()
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
    this.transcriptionTimeoutMs = options.transcriptionTimeoutMs ?? defaults.transcriptionTimeoutMs
    // Opened now, so the first utterance finds it ready.
    this.socket = this.connect()
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) {
      audio.resume()
      return
    }
    const onData = (chunk: Buffer) => {
      const whole = wholeSamples(utterance, chunk)
      if (whole.length === 0) return
      utterance.queue.push(whole)
      this.pump()
    }
    const onEnd = () => {
      this.utterances.detach(utterance)
      utterance.ended = true
      this.pump()
    }
    const utterance: Utterance = {
      queue: [],
      sentAudio: false,
      ended: false,
      committed: false,
      segments: [],
    }
    this.utterances.add(utterance, () => {
      audio.off('data', onData)
      audio.off('end', onEnd)
    })
    // A broken input ends the utterance with what was heard; the listener stays, so that an error
    // coming later is never unhandled.
    audio.on('error', onEnd)
    if (audio.readableEnded) return onEnd()
    audio.on('data', onData)
    audio.once('end', onEnd)
  }

  override destroy(): void {
    this.destroyed = true
    this.utterances.close()
    this.socket?.dispose()
    this.socket = undefined
    super.destroy()
  }

  /** Sends what the utterances hold, in order, opening a connection when there is none. */
  private pump(): void {
    if (this.destroyed) return
    // Nothing was said: no commit at all.
    for (const utterance of this.utterances.silent()) {
      this.utterances.finish(utterance, () => this.emitTranscript(''))
    }
    if (!this.utterances.items.some((u) => !u.committed && (u.queue.length > 0 || u.ended))) return
    if (!this.socket || this.socket.isOver) this.socket = this.connect()
    const socket = this.socket
    for (const utterance of this.utterances.items) {
      if (utterance.committed) continue
      for (const chunk of utterance.queue.splice(0)) {
        utterance.socket = socket
        utterance.sentAudio = true
        socket.send(audioChunk(chunk.toString('base64'), false))
      }
      // The next utterance's audio waits for this one's commit, so commits cut at the right place.
      if (!utterance.ended) return
      utterance.committed = true
      socket.send(audioChunk('', true))
      utterance.timer = setTimeout(() => {
        const error = new ElevenLabsSTTError(
          `no transcript within ${this.transcriptionTimeoutMs} ms of the end of the utterance`
        )
        this.failSocket(socket, error)
      }, this.transcriptionTimeoutMs)
    }
  }

  private connect(): JsonSocket {
    const socket: JsonSocket = openJsonSocket({
      url: this.url,
      apiKey: this.apiKey,
      connectionTimeoutMs: this.connectionTimeoutMs,
      onMessage: (message) => this.handle(socket, message),
      onEnd: (end) => this.failSocket(socket, socketError(end)),
      log: (...message) => this.log(...message),
    })
    return socket
  }

  private handle(socket: JsonSocket, message: Record<string, unknown>): void {
    if (this.destroyed) return
    const type = message.message_type
    const text = typeof message.text === 'string' ? message.text : ''
    if (type === 'partial_transcript') {
      const utterance = this.current(socket)
      if (!utterance) return
      this.emit('Partial', joinText([...utterance.segments, text]))
      return
    }
    if (type === 'committed_transcript') {
      const utterance = this.current(socket)
      if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
      utterance.segments.push(text)
      if (utterance.committed) {
        this.utterances.finish(utterance, () => this.emitTranscript(joinText(utterance.segments)))
      }
      return
    }
    if (typeof type === 'string' && SCRIBE_ERROR_TYPES.has(type)) {
      const detail = typeof message.error === 'string' ? message.error : JSON.stringify(message)
      // The session's state after an error is unknown: it is dropped, so that no later transcript
      // is matched to the wrong utterance.
      this.failSocket(socket, new ElevenLabsSTTError(`${type}: ${detail}`, { messageType: type }))
      return
    }
    // session_started, final_transcript (a segment's text before its commit),
    // committed_transcript_with_timestamps (not asked for), committed_transcript_entities,
    // edited_transcript: not needed.
  }

  /** The utterance the next text of `socket` belongs to: the oldest one whose audio went there. */
  private current(socket: JsonSocket): Utterance | undefined {
    return this.utterances.items.find((u) => u.socket === socket)
  }

  /**
   * Drops a connection: every utterance whose audio went to it (or, when it never opened, every
   * one waiting) fails with `error`; utterances whose audio is all still here go to the next one.
   */
  private failSocket(socket: JsonSocket, error: ElevenLabsSTTError): void {
    if (this.destroyed) return
    const neverOpened = !socket.wasOpened
    socket.dispose()
    if (this.socket === socket) this.socket = undefined
    const failed = this.utterances.items.filter(
      (u) => u.socket === socket || (neverOpened && !u.committed && (u.queue.length > 0 || u.ended))
    )
    if (failed.length === 0) this.log('Connection ended:', error.message)
    for (const utterance of failed) {
      this.utterances.finish(utterance, () => {
        this.log('Failed:', error.message)
        this.emit('Failed', error)
      })
    }
    // After a refused connection, only new audio tries again (no loop of refused connections).
    if (!neverOpened) this.pump()
  }

  private emitTranscript(text: string): void {
    this.log(`Transcript: "${text}"`)
    this.emitFinalTranscript(text)
  }
}

/** An `input_audio_chunk` message (a commit is one with no audio and `commit: true`). */
function audioChunk(audioBase64: string, commit: boolean) {
  return {
    message_type: 'input_audio_chunk',
    audio_base_64: audioBase64,
    commit,
    sample_rate: SAMPLE_RATE,
  }
}

/** The chunk's whole samples, a byte split from the next chunk kept for it. */
function wholeSamples(utterance: Utterance, chunk: Buffer): Buffer {
  let audio = utterance.oddByte ? Buffer.concat([utterance.oddByte, chunk]) : Buffer.from(chunk)
  utterance.oddByte = undefined
  if (audio.length % 2 === 1) {
    utterance.oddByte = audio.subarray(audio.length - 1)
    audio = audio.subarray(0, audio.length - 1)
  }
  return audio
}

function joinText(segments: string[]): string {
  return segments
    .map((segment) => segment.trim())
    .filter(Boolean)
    .join(' ')
}

function socketError(end: SocketEnd): ElevenLabsSTTError {
  return new ElevenLabsSTTError(end.message, { status: end.status, closeCode: end.closeCode })
}
