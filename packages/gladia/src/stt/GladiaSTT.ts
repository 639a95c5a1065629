import { STT } from '@openmic/core'
import { followStream } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { GladiaSTTError } from './errors.js'
import { LiveSession } from './LiveSession.js'
import { resolveOptions, type GladiaSTTOptions, type ResolvedGladiaSTTOptions } from './options.js'
import { sessionBody, type GladiaLiveSettings } from './settings.js'

/** One user utterance (one `transcribe()`): its session, its text so far, its outcome. */
interface Utterance {
  /** Its own live session, taken at its first audio chunk. */
  session?: LiveSession
  /** The text of each final transcript Gladia sent for it. */
  readonly finals: string[]
  /** Set once it is over; emitted when every utterance before it was. */
  outcome?: { text: string } | { error: GladiaSTTError }
  timer?: ReturnType<typeof setTimeout>
  detach(): void
}

/**
 * Speech-to-text with Gladia's live API (v2): `POST /v2/live` creates a session, whose WebSocket
 * takes the audio (PCM16 16 kHz mono, as it arrives) and sends transcripts.
 *
 * Each utterance gets its own session, and a session is created ahead of time (with the instance,
 * then after each utterance), so an utterance finds it open. The end of an utterance sends
 * `stop_recording`, the protocol's end of the audio: Gladia closes its last utterance at once
 * instead of waiting for silence (no padding is sent), and `end_recording` tells that its last
 * final transcript came. Gladia's live protocol has no per-utterance commit on a long session,
 * which is why a session serves one utterance.
 *
 * Partial transcripts become `Partial` (the utterance's text so far). Every final transcript of
 * the utterance (Gladia cuts a turn at each pause) is joined into ONE `Transcript`, then
 * `TranscriptEnd`; an utterance with no audio gives `''` without a session.
 *
 * What goes wrong becomes `Failed` at once, naming GladiaSTT and the status or code: a refused
 * session (`GladiaSTT: 401 Invalid or missing API key`), an in-band error (an audio chunk or
 * `stop_recording` not acknowledged), a session closed before its end, no end of transcription
 * `transcriptionTimeoutMs` after `stop_recording`. A 408, 429 or 5xx at session creation is
 * retried `maxRetry` times. A WebSocket that drops mid-utterance is opened again on the same
 * session and gets only the audio Gladia did not acknowledge, so no acknowledged byte is sent twice; a session
 * the provider closed is replaced for the next utterance. A malformed message is logged and
 * ignored.
 *
 * @example
 * const stt = new GladiaSTT({
 *   apiKey: process.env.GLADIA_API_KEY,
 *   settings: { language_config: { languages: ['en'] } },
 * })
 * stt.on('Partial', (text) => console.log('...', text))
 * stt.on('Transcript', (text) => console.log('User:', text))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class GladiaSTT extends STT {
  /** `gladia`, the provider, for tracing. */
  override get providerName(): string {
    return 'gladia'
  }

  /** True: every utterance's text is one `Transcript`, then `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  /** The session created ahead of time for the next utterance. */
  private prepared?: LiveSession
  /** The utterance each session in use belongs to. */
  private readonly owners = new Map<LiveSession, Utterance>()
  /** Utterances whose outcome is not emitted yet, in order. */
  private readonly utterances: Utterance[] = []
  private destroyed = false
  private readonly options: ResolvedGladiaSTTOptions
  private readonly body: GladiaLiveSettings

  constructor(options: GladiaSTTOptions = {}) {
    super()
    this.options = resolveOptions(options)
    this.body = sessionBody(options.settings)
    this.prepared = this.open()
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) return
    const onData = (chunk: Buffer) => {
      if (chunk.length === 0 || utterance.outcome) return
      utterance.session ??= this.take(utterance)
      utterance.session.sendAudio(chunk)
    }
    const onEnd = () => {
      utterance.detach()
      if (utterance.outcome) return
      // Nothing was said: no session used at all.
      if (!utterance.session) return this.settle(utterance, { text: '' })
      utterance.session.stop()
      utterance.timer = setTimeout(() => {
        const { transcriptionTimeoutMs } = this.options
        const error = new GladiaSTTError(
          `no end of transcription ${transcriptionTimeoutMs} ms after stop_recording`
        )
        this.settle(utterance, { error })
      }, this.options.transcriptionTimeoutMs)
    }
    const utterance: Utterance = { finals: [], detach: () => {} }
    this.utterances.push(utterance)
    // A broken input ends the utterance with what was heard.
    utterance.detach = followStream<Buffer>(audio, { data: onData, end: onEnd, error: onEnd })
  }

  override destroy(): void {
    this.destroyed = true
    for (const utterance of this.utterances.splice(0)) {
      clearTimeout(utterance.timer)
      utterance.detach()
    }
    for (const session of this.owners.keys()) session.close()
    this.owners.clear()
    this.prepared?.close()
    this.prepared = undefined
    super.destroy()
  }

  /** The session for `utterance`: the prepared one if it is still good, else a new one. */
  private take(utterance: Utterance): LiveSession {
    let session = this.prepared
    this.prepared = undefined
    if (!session?.usable) {
      session?.close()
      session = this.open()
    }
    this.owners.set(session, utterance)
    return session
  }

  private open(): LiveSession {
    const session: LiveSession = new LiveSession(this.options, this.body, {
      onPartial: (text) => {
        const utterance = this.owners.get(session)
        if (utterance && !utterance.outcome) {
          this.emit('Partial', [...utterance.finals, text].join(' '))
        }
      },
      onFinal: (text) => {
        const utterance = this.owners.get(session)
        if (!utterance || utterance.outcome || !text) return
        utterance.finals.push(text)
        this.emit('Partial', utterance.finals.join(' '))
      },
      onEnded: () => {
        const utterance = this.owners.get(session)
        if (utterance) this.settle(utterance, { text: utterance.finals.join(' ') })
      },
      onFailed: (error) => {
        const utterance = this.owners.get(session)
        if (utterance) return this.settle(utterance, { error })
        // A session lost before any utterance used it: the next utterance opens another.
        this.log('Prepared session lost:', error.message)
        if (this.prepared === session) this.prepared = undefined
      },
      log: (...message) => this.log(...message),
    })
    return session
  }

  /** Records an utterance's outcome and emits every outcome that is next in order. */
  private settle(utterance: Utterance, outcome: NonNullable<Utterance['outcome']>): void {
    if (this.destroyed || utterance.outcome) return
    utterance.outcome = outcome
    clearTimeout(utterance.timer)
    utterance.detach()
    if (utterance.session) {
      utterance.session.close()
      this.owners.delete(utterance.session)
    }
    // The next utterance finds a session open; after a failure, it opens its own (no loop of
    // refused sessions).
    if ('text' in outcome && utterance.session && !this.prepared) this.prepared = this.open()
    while (this.utterances[0]?.outcome) {
      const done = this.utterances.shift()!.outcome!
      if ('error' in done) this.emit('Failed', done.error)
      else this.emitFinalTranscript(done.text)
      if (this.destroyed) return
    }
  }
}
