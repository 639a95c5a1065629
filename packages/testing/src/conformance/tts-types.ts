import type { TTS } from '@openmic/core'
import type { SpeechConformanceTiming } from './speech-kit.js'

/** What the provider must answer to the next `speak()` of a TTS conformance test. */
export type TTSConformanceSpeak =
  /** Speak `text` (all of its requests answered with audio). */
  | { kind: 'speech'; text: string }
  /** Fail (an HTTP error, an in-band `error` event...): the suite expects `Failed`. */
  | { kind: 'failure'; text: string }
  /** Never answer (only asked when `stallTimeoutMs` is set): the suite expects `Failed`. */
  | { kind: 'stall'; text: string }

/** The TTS under test, built for one conformance test by {@link TTSConformanceOptions.make}. */
export interface TTSConformanceSetup {
  /** The instance under test. The suite destroys it. */
  tts: TTS
  /**
   * Scripts the provider's answer to the next `speak()` (called just before it, once per
   * `speak()`, in order). Omit it when there is nothing to script. A fake provider must answer
   * with audio that is not silence.
   */
  next?(speak: TTSConformanceSpeak): void | Promise<void>
  /** Releases what `make()` started (a fake server...), after the TTS was destroyed. */
  teardown?(): void | Promise<void>
}

/** Options of {@link describeTTSConformance}. */
export interface TTSConformanceOptions extends SpeechConformanceTiming {
  /** Builds the TTS under test, fresh for each test. */
  make(): TTSConformanceSetup | Promise<TTSConformanceSetup>
  /** The class emits `Words` timings: the suite then requires and checks them. Default false. */
  words?: boolean
  /**
   * `next({ kind: 'failure' })` can make the provider fail. Default true; false skips the
   * failure tests.
   */
  failures?: boolean
  /** The `speak()` after a failed one is spoken as usual. Default true. */
  recovers?: boolean
  /**
   * The TTS gives up a provider that sends no audio after this long, in ms (its own timeout
   * option, set to this value in `make()`): the suite scripts `{ kind: 'stall' }` and expects
   * `Failed` within it, and no `AudioEnd`. Default undefined: the stall test is skipped.
   */
  stallTimeoutMs?: number
  /** How far a word's end may go past the end of the audio, in ms (default 100). */
  wordsToleranceMs?: number
  /** Quietest audio accepted as speech, RMS level in dBFS (default -50). */
  minLevelDbfs?: number
}
