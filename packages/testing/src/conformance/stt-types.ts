import type { STT } from '@openmic/core'
import type { SpeechConformanceTiming } from './speech-kit.js'

/** What the provider must answer to the next utterance of an STT conformance test. */
export type STTConformanceUtterance =
  /**
   * Recognize `transcript`. `partials` are the interim texts a provider with interim results
   * sends first, each the whole utterance so far (`['what', 'what time is']`); `deltas` are the
   * same texts as a provider sending increments has them, each what its partial adds to the one
   * before (`['what', ' time is']`).
   */
  | { kind: 'speech'; transcript: string; partials: string[]; deltas: string[] }
  /**
   * No audio at all: the stream ends at once. Script an empty transcript if the provider is still
   * asked, or nothing if it is not.
   */
  | { kind: 'empty' }
  /** The provider fails this utterance (an HTTP error, an in-band `error` event...). */
  | { kind: 'failure' }
  /** The provider never answers this utterance (only asked when `stallTimeoutMs` is set). */
  | { kind: 'stall' }

/** The STT under test, built for one conformance test by {@link STTConformanceOptions.make}. */
export interface STTConformanceSetup {
  /** The instance under test. The suite destroys it. */
  stt: STT
  /**
   * Scripts the provider's answer to the next utterance (called just before its `transcribe()`,
   * once per utterance, in order) and returns the audio to send: PCM16 16 kHz mono. Return
   * nothing to send the suite's own test audio (enough for a fake provider). Omit `next` when
   * there is nothing to script.
   */
  next?(utterance: STTConformanceUtterance): Buffer | void | Promise<Buffer | void>
  /**
   * Makes the provider close its connection now, between two utterances, as a provider may
   * (a close 1000 after a session limit, a restart). Needed with `reconnects: true`.
   */
  closeConnection?(): void | Promise<void>
  /** Releases what `make()` started (a fake server...), after the STT was destroyed. */
  teardown?(): void | Promise<void>
}

/** Options of {@link describeSTTConformance}. */
export interface STTConformanceOptions extends SpeechConformanceTiming {
  /** Builds the STT under test, fresh for each test. */
  make(): STTConformanceSetup | Promise<STTConformanceSetup>
  /**
   * The class emits `Partial` while the user speaks, given scripted partials: the suite then
   * requires at least one before the `Transcript`. Default false (a `Partial` is still allowed,
   * and must still come before the utterance's last `Transcript`).
   */
  partials?: boolean
  /**
   * `next({ kind: 'failure' })` can make the provider fail (a fake server can; a local engine
   * usually cannot). Default true; false skips the failure tests.
   */
  failures?: boolean
  /** The utterance after a failed one is transcribed as usual. Default true. */
  recovers?: boolean
  /**
   * The class keeps a connection to its provider and opens it again for the next utterance when
   * the provider closed it: the suite calls `closeConnection()` between two utterances and
   * expects the second one transcribed, with no `Failed`. Default false: the test is skipped.
   */
  reconnects?: boolean
  /**
   * The STT gives up a provider that stops answering after this long, in ms (its own timeout
   * option, set to this value in `make()`): the suite scripts `{ kind: 'stall' }` and expects
   * `Failed` within it. Default undefined: the stall test is skipped.
   */
  stallTimeoutMs?: number
  /**
   * Texts the tests ask for, at least three (default `hello there`, `what time is it`,
   * `thank you very much`). A real recognizer needs texts it recognizes from the audio `next()`
   * returns.
   */
  transcripts?: string[]
  /**
   * Whether the text heard (the utterance's transcripts joined by a space) is the text expected.
   * Default: equal once blanks are trimmed and collapsed.
   */
  matchTranscript?(heard: string, expected: string): boolean
  /**
   * How long an empty utterance may take to give its empty `Transcript`, if it gives one, in ms
   * (default 2 000). It must give nothing else.
   */
  emptyTimeoutMs?: number
  /** Size of the audio chunks sent, in ms of audio (default 20). */
  chunkMs?: number
  /** Wait between audio chunks, in ms (default 0: none; 20 with 20 ms chunks is real time). */
  chunkIntervalMs?: number
}
