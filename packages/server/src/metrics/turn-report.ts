import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { AnswerTimes, TurnClock } from './turn-metrics.js'

/**
 * How a user turn ended: `answered` (its answer was heard to its end), `interrupted` (its answer
 * was cut: a barge-in, a newer answer), `failed` (the STT, the agent or the TTS failed: see
 * `failure`), `skipped` (no answer: no words, or the agent skipped it).
 */
export type TurnOutcome = 'answered' | 'interrupted' | 'failed' | 'skipped'

/** What failed in a turn, and when (performance.now()). */
export interface TurnFailure {
  part: 'agent' | 'stt' | 'tts'
  error: unknown
  at: number
}

/** An answer's playback: from its first audio sent to when the user had heard it, or was cut. */
export interface PlaybackTimes {
  /** The first audio handed to the transport (performance.now()). */
  startAt: number
  /** When it was all heard, or cut (performance.now()). */
  endAt: number
  /** How much of it the user heard (ms of audio). */
  heardMs: number
  /** How much of it was sent (ms of audio). */
  sentMs: number
  /**
   * `reported`: the other side said how far it played (an openmic client's `Played`, a phone
   * line's marks); `estimated`: the server's reckoning of the playback from when audio was sent.
   */
  source: 'reported' | 'estimated'
}

/** One user turn, once over (the `Turn` event): what the spans of a turn are built from. */
export interface TurnReport {
  outcome: TurnOutcome
  /**
   * The instants of the turn (performance.now()): those of `Metrics` (no answer's when it got
   * none), when the answer's production ended (`producedAt`) and when the turn was over
   * (`endedAt`: its answer heard, cut, or given up).
   */
  times: TurnClock & Partial<AnswerTimes> & { producedAt?: number; endedAt: number }
  /** Its latencies, as `Metrics` reports them (the steps that happened). */
  metrics: MicdropTurnMetrics
  /** The playback of its answer, when some audio of it was sent. */
  playback?: PlaybackTimes
  failure?: TurnFailure
}
