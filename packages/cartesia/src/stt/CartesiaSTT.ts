import { STT } from '@openmic/core'
import { UtteranceQueue, type QueuedUtterance } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { Cartesia } from '../api/cartesia-sdk.js'
import { CARTESIA_BASE_URL } from '../api/websocket-url.js'
import { CartesiaSTTError } from './errors.js'
import { STTSession } from './stt-session.js'
import type { CartesiaSTTOptions } from './types.js'

/** One user utterance: its audio waiting to be sent, and where it stands. */
interface Utterance extends QueuedUtterance {
  /** The session its audio went to; its death fails the utterance. */
  session?: STTSession
  finalized: boolean
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
export class CartesiaSTT extends STT {
  /** The SDK client sessions are opened with. */
  private readonly cartesia: Cartesia
  private session?: STTSession
  /** Utterances not finished, in order: audio is sent, and transcripts matched, in this order. */
  private readonly utterances = new UtteranceQueue<Utterance>()
  private destroyed = false
  private readonly connectionTimeoutMs: number
  private readonly transcriptionTimeoutMs: number

  constructor(private readonly options: CartesiaSTTOptions = {}) {
    super()
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? 5000
    this.transcriptionTimeoutMs = options.transcriptionTimeoutMs ?? 4000
    this.cartesia = new Cartesia({
      apiKey: options.apiKey ?? process.env.CARTESIA_API_KEY ?? '',
      baseURL: options.baseURL ?? CARTESIA_BASE_URL,
      maxRetries: 0,
    })
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
      finalized: false,
      finals: '',
      partial: '',
    }
    this.utterances.follow(utterance, audio, { changed: () => this.pump() })
  }

  override destroy(): void {
    this.destroyed = true
    this.utterances.close()
    this.session?.close()
    this.session = undefined
    super.destroy()
  }

  /** Sends what the utterances hold, in order, opening a session when there is none. */
  private pump(): void {
    if (this.destroyed) return
    // Nothing was said: no request at all.
    for (const utterance of this.utterances.silent()) {
      this.utterances.finish(utterance, () => this.emitFinalTranscript(''))
    }
    if (!this.utterances.items.some((u) => !u.finalized && (u.queue.length > 0 || u.ended))) return
    if (!this.session?.usable) this.connect()
    const session = this.session!
    for (const utterance of this.utterances.items) {
      if (utterance.finalized) continue
      if (utterance.queue.length > 0) {
        utterance.session = session
        utterance.sentAudio = true
        for (const chunk of utterance.queue.splice(0)) session.sendAudio(chunk)
      }
      // The next utterance's audio waits for this one's end, so that finalizes cut at the right place.
      if (!utterance.ended) return
      utterance.finalized = true
      session.finalize()
      utterance.timer = setTimeout(() => {
        const error = new CartesiaSTTError(
          `no transcript ${this.transcriptionTimeoutMs} ms after the utterance ended`
        )
        this.failSession(session, error)
      }, this.transcriptionTimeoutMs)
    }
  }

  private connect(): void {
    if (this.destroyed) return
    const session: STTSession = new STTSession(
      this.cartesia,
      { ...this.options, connectionTimeoutMs: this.connectionTimeoutMs },
      {
        onTranscript: (text, isFinal) => {
          const utterance = this.current(session)
          if (!utterance) return this.log('Ignored a transcript with no utterance waiting for it')
          if (isFinal) utterance.finals += text
          const soFar = (isFinal ? utterance.finals : utterance.finals + text).trim()
          if (!soFar || soFar === utterance.partial) return
          utterance.partial = soFar
          this.emit('Partial', soFar)
        },
        onFlushDone: () => {
          const utterance = this.utterances.items.find((u) => u.session === session && u.finalized)
          if (!utterance) return this.log('Ignored a flush_done with no utterance waiting for it')
          this.utterances.finish(utterance, () => this.emitFinalTranscript(utterance.finals.trim()))
        },
        // The session's state after an error is unknown: it is dropped, so that no later
        // transcript is matched to the wrong utterance.
        onError: (error) => this.failSession(session, error),
        onClosed: (error) => this.failSession(session, error),
        log: (...message) => this.log(...message),
      }
    )
    this.session = session
  }

  /** The utterance the next text of `session` belongs to: the oldest one whose audio went there. */
  private current(session: STTSession): Utterance | undefined {
    return this.utterances.items.find((u) => u.session === session)
  }

  /**
   * Drops a session: every utterance whose audio went to it (or, when it never opened, that waits
   * for it) fails with `error`; utterances whose audio is all still here go to the next session.
   */
  private failSession(session: STTSession, error: CartesiaSTTError): void {
    if (this.destroyed) return
    const neverOpened = !session.opened
    session.close()
    if (this.session === session) this.session = undefined
    const failed = this.utterances.items.filter(
      (u) =>
        u.session === session || (neverOpened && !u.finalized && (u.queue.length > 0 || u.ended))
    )
    if (failed.length === 0) this.log('Session ended:', error.message)
    for (const utterance of failed) {
      this.utterances.finish(utterance, () => this.emit('Failed', error))
    }
    // Audio of an utterance that began after the failure gets a new session. After a refused
    // connection, only new audio tries again (no loop of refused connections).
    if (!neverOpened) this.pump()
  }
}
