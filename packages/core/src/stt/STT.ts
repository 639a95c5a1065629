import { EventEmitter } from 'eventemitter3'
import type { Readable } from 'node:stream'
import type { Logger } from '../logger/Logger.js'
import { defaultProviderName } from '../telemetry/provider-name.js'
import type { FallbackSwitch } from '../telemetry/reports.js'
import { eventsGoToCall } from '../events/call-sink.js'

export interface STTEvents {
  /**
   * Interim text of the utterance being transcribed: the whole utterance so far, which a later
   * `Partial` or the `Transcript` replaces. For display and turn-taking only, never answered.
   */
  Partial: [text: string]
  /** Final text recognized in the current utterance. Several may come for one utterance. */
  Transcript: [transcript: string]
  /**
   * The current utterance's text is complete: every `Transcript` of it was emitted. Emitted once
   * per `transcribe()` that did not fail, after its last `Transcript`, by an STT whose
   * {@link STT.signalsTranscriptEnd} is true.
   */
  TranscriptEnd: []
  /** Transcription failed; the utterance produced no (further) transcript. */
  Failed: [error: unknown]
  /** openmic: a `FallbackSTT` switched to its next STT. */
  Fallback: [fallback: FallbackSwitch]
}

/**
 * Speech-to-text. The server calls `transcribe()` once per user utterance with a stream of PCM16
 * 16 kHz mono audio that ends when the user stops speaking.
 *
 * The contract every STT meets (`describeSTTConformance` in `@openmic/testing` checks it):
 * - One `transcribe()` stream is one utterance; one instance transcribes the many utterances of a
 *   call, one after the other, each one's text emitted as `Transcript` (possibly empty: nothing
 *   was said).
 * - `Partial` may come while the user speaks; it is never required.
 * - An STT that knows when an utterance's text is complete says so: it emits `TranscriptEnd` after
 *   the utterance's last `Transcript` and returns true from `signalsTranscriptEnd`. The server then
 *   answers at once; for an STT that does not, it waits a short grace after each `Transcript`, in
 *   case more text of the same utterance follows.
 * - Any provider error, including one reported inside an open connection, becomes `Failed` at once,
 *   not a timeout (so `FallbackSTT` can switch). A provider that stalls is given up after a timeout,
 *   with `Failed`. No error is ever thrown out of an event handler or left unhandled.
 * - A connection the provider closed (whatever the code) is opened again for the next utterance,
 *   and no audio chunk is sent twice.
 * - `destroy()` releases every socket and timer; nothing is emitted afterwards.
 */
export abstract class STT extends EventEmitter<STTEvents> {
  public logger?: Logger

  /**
   * Who provides the transcription, for tracing (`openmic.stt.provider`): each provider package
   * says its own (`openai`, `gladia`...); by default the class name without `STT`, in snake case.
   */
  get providerName(): string {
    return defaultProviderName(this, 'STT')
  }

  /** Starts transcribing one utterance; emit `Partial` and `Transcript` as text is recognized. */
  abstract transcribe(audio: Readable): void

  /**
   * Whether this STT emits `TranscriptEnd` after the last `Transcript` of every utterance. False
   * unless a subclass overrides it: text may then come in several pieces, with no end signal.
   */
  get signalsTranscriptEnd(): boolean {
    return false
  }

  /** Emits the whole text of the current utterance: `Transcript`, then `TranscriptEnd`. */
  protected emitFinalTranscript(transcript: string): void {
    this.emit('Transcript', transcript)
    this.emit('TranscriptEnd')
  }

  protected log(...message: any[]) {
    this.logger?.log(...message)
  }

  /** Stops everything and removes all listeners. */
  destroy() {
    this.log('Destroyed')
    this.removeAllListeners()
  }
}

// The call the STT belongs to hears its events first (see call-sink.ts).
eventsGoToCall(STT)
