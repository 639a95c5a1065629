import { StreamingSTT, type StreamingUtterance } from '@openmic/core/provider'
import { GladiaSTTError } from './errors.js'
import { resolveOptions, type GladiaSTTOptions } from './options.js'
import { sessionBody } from './session-body.js'
import { GladiaSTTConnection, type GladiaSTTConnectionOptions } from './stt-connection.js'

/** One user utterance (one `transcribe()`), on a live session of its own. */
interface Utterance extends StreamingUtterance<GladiaSTTConnection> {
  /** The text of each final transcript Gladia sent for it. */
  readonly finals: string[]
}

/**
 * Speech-to-text with Gladia's live API (v2): `POST /v2/live` creates a session, whose WebSocket
 * takes the audio (PCM16 16 kHz mono, as it arrives) and sends transcripts.
 *
 * Each utterance gets its own session, and a session is created ahead of time (with the instance,
 * then after each transcript), so an utterance finds it open. The end of an utterance sends
 * `stop_recording`, the protocol's end of the audio: Gladia closes its last utterance at once
 * instead of waiting for silence (no padding is sent), and `end_recording` tells that its last
 * final transcript came. Gladia's live protocol has no per-utterance commit on a long session,
 * which is why a session serves one utterance.
 *
 * Partial transcripts become `Partial` (the utterance's text so far). Every final transcript of
 * the utterance (Gladia cuts a turn at each pause) is joined into ONE `Transcript`, then
 * `TranscriptEnd`, in the order of the utterances; an utterance with no audio gives `''` without
 * a session.
 *
 * What goes wrong becomes `Failed` at once, naming GladiaSTT and the status or code: a refused
 * session (`GladiaSTT: 401 Invalid or missing API key`), an in-band error (an audio chunk or
 * `stop_recording` not acknowledged), a session closed before its end, no end of transcription
 * `transcriptionTimeoutMs` after `stop_recording`. A 408, 429 or 5xx at session creation is
 * retried `maxRetry` times. A WebSocket that drops mid-utterance is opened again on the same
 * session and gets only the audio Gladia did not acknowledge, so no acknowledged byte is sent
 * twice; a session the provider closed is replaced for the next utterance, and after a refused
 * one only new audio creates another. A malformed message is logged and ignored.
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
export class GladiaSTT extends StreamingSTT<GladiaSTTConnection, Utterance> {
  /** What each session is opened with. */
  private readonly session: GladiaSTTConnectionOptions

  constructor(options: GladiaSTTOptions = {}) {
    const resolved = resolveOptions(options)
    super({
      providerName: 'gladia',
      transcriptionTimeoutMs: resolved.transcriptionTimeoutMs,
      // `stop_recording` ends the session: the next utterance needs another.
      connectionPerUtterance: true,
    })
    this.session = { ...resolved, body: sessionBody(options.settings) }
    this.start()
  }

  protected newUtterance() {
    return { finals: [] as string[] }
  }

  protected timeoutError(timeoutMs: number): GladiaSTTError {
    return new GladiaSTTError(`no end of transcription ${timeoutMs} ms after stop_recording`)
  }

  protected connect(): GladiaSTTConnection {
    const session: GladiaSTTConnection = new GladiaSTTConnection(this.session, {
      onPartial: (text) => {
        const utterance = this.current(session)
        if (utterance) this.partial([...utterance.finals, text].join(' '))
      },
      onFinal: (text) => {
        const utterance = this.current(session)
        if (!utterance || !text) return
        utterance.finals.push(text)
        this.partial(utterance.finals.join(' '))
      },
      onEnded: () => {
        const utterance = this.current(session)
        if (utterance) this.complete(utterance, utterance.finals.join(' '))
      },
      onClosed: (error) => this.failConnection(session, error),
      log: (...message) => this.log(...message),
    })
    return session
  }
}
