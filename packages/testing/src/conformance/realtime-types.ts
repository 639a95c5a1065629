import type { RealtimeModel } from '@openmic/core'
import type { SpeechConformanceTiming } from './speech-kit.js'

/** What the provider must do next in a realtime conformance test. */
export type RealtimeConformanceStep =
  /** The next commit of user audio is transcribed `text`. */
  | { kind: 'transcript'; text: string }
  /** The next response (or `say()`) speaks `text`, with its transcript, at once. */
  | { kind: 'response'; text: string }
  /**
   * The next response speaks `text` slowly: its audio keeps coming for at least a second, so that
   * it can be cancelled mid-way.
   */
  | { kind: 'slow-response'; text: string }
  /** The next response calls the function `name` with the JSON `arguments`. */
  | { kind: 'function-call'; name: string; arguments: string }
  /** The next response fails (a provider error): it must end `failed`. */
  | { kind: 'failed-response' }
  /** The session drops now (the connection resets): `Failed`, then a new session. */
  | { kind: 'drop' }
  /** The next session is refused (an HTTP error at the handshake, e.g. 401). */
  | { kind: 'refuse'; status: number }

/** The model under test, built for one conformance test by {@link RealtimeConformanceOptions.make}. */
export interface RealtimeConformanceSetup {
  /** The instance under test. The suite destroys it. */
  model: RealtimeModel
  /** Scripts the provider (called just before the suite does what the step is about). */
  next?(step: RealtimeConformanceStep): void | Promise<void>
  /** Releases what `make()` started (a fake server...), after the model was destroyed. */
  teardown?(): void | Promise<void>
}

/** Options of {@link describeRealtimeConformance}. */
export interface RealtimeConformanceOptions extends SpeechConformanceTiming {
  /** Builds the model under test, fresh for each test. */
  make(): RealtimeConformanceSetup | Promise<RealtimeConformanceSetup>
  /**
   * `next({ kind: 'drop' })` and `next({ kind: 'refuse' })` can be played. Default true; false
   * skips the session failure tests.
   */
  sessionFailures?: boolean
  /** Quietest audio accepted as speech, RMS level in dBFS (default -50). */
  minLevelDbfs?: number
}
