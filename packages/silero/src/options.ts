import type { Logger } from '@openmic/core'
import type { SpeechTrackerSettings } from './vad/SpeechTracker.js'

/** Options of a {@link SileroVAD}; the defaults suit a phone call's barge-in. */
export interface SileroVADOptions {
  /**
   * Speech probability (0 to 1, exclusive) at which a window counts as the start of speech.
   * Higher misses soft speech, lower takes more noise for speech. Default `0.5`.
   */
  threshold?: number
  /**
   * Speech probability below which a window counts as silence, at most `threshold`: between the
   * two, whatever is in progress (speech or a silence) goes on. Default `threshold - 0.15` (at
   * least 0.01), as silero-vad does.
   */
  negativeThreshold?: number
  /**
   * How long speech must last before `SpeechStart` (ms, 0 or more): shorter sounds (a click, a
   * cough, a "hm") start nothing, so they do not interrupt the assistant. `SpeechStart`'s `atMs`
   * is still where the speech began. Default `250`.
   */
  minSpeechMs?: number
  /**
   * How long silence must last before `SpeechEnd` (ms, 0 or more): pauses between words and
   * sentences shorter than it stay inside one speech. Default `600`.
   */
  silenceMs?: number
  /**
   * How long silence must last to be a pause (ms, less than `silenceMs`): `SpeechPause`, then
   * `SpeechResume` if the speech goes on or `SpeechEnd` if the silence lasts. For preemptive
   * answers (a server starts answering at the pause). Default: no pause reported.
   */
  pauseMs?: number
  /** Receives the VAD's log lines (model load, failures). */
  logger?: Logger
}

/** The tracker's settings, defaults applied, each checked: a bad value throws a `RangeError`. */
export function resolveOptions(options: SileroVADOptions): SpeechTrackerSettings {
  const threshold = options.threshold ?? 0.5
  check('threshold', threshold, threshold > 0 && threshold < 1, 'between 0 and 1 (exclusive)')
  const negativeThreshold = options.negativeThreshold ?? Math.max(threshold - 0.15, 0.01)
  check(
    'negativeThreshold',
    negativeThreshold,
    negativeThreshold >= 0 && negativeThreshold <= threshold,
    `between 0 and threshold (${threshold})`
  )
  const minSpeechMs = options.minSpeechMs ?? 250
  check('minSpeechMs', minSpeechMs, minSpeechMs >= 0, 'a duration in ms, 0 or more')
  const silenceMs = options.silenceMs ?? 600
  check('silenceMs', silenceMs, silenceMs >= 0, 'a duration in ms, 0 or more')
  const { pauseMs } = options
  if (pauseMs === undefined) return { threshold, negativeThreshold, minSpeechMs, silenceMs }
  check(
    'pauseMs',
    pauseMs,
    pauseMs >= 0 && pauseMs < silenceMs,
    `a duration in ms below silenceMs (${silenceMs})`
  )
  return { threshold, negativeThreshold, minSpeechMs, silenceMs, pauseMs }
}

function check(name: string, value: unknown, valid: boolean, expected: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || !valid) {
    throw new RangeError(`SileroVAD: ${name} must be ${expected}, got ${String(value)}`)
  }
}
