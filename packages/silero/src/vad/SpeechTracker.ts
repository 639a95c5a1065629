import type { VADEvents } from '@openmic/core'
import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'

/** Samples per ms of the audio the VAD hears. */
const SAMPLES_PER_MS = MICDROP_AUDIO_FORMAT.sampleRate / 1000
/**
 * Longest dip below the negative threshold that a speech still being timed for `minSpeechMs` may
 * have (about three windows): a word's stop consonant or a breath between two words, not the
 * silence after a cough.
 */
const CANDIDATE_GAP_MS = 100

export interface SpeechTrackerSettings {
  threshold: number
  negativeThreshold: number
  minSpeechMs: number
  silenceMs: number
  /** Silence that makes a pause (`SpeechPause`), less than `silenceMs`; none reported without it. */
  pauseMs?: number
}

/** An event the tracker decided, for the VAD to emit. */
export interface TrackedEvent {
  type: Exclude<keyof VADEvents, 'Failed'>
  atMs: number
}

/**
 * Turns the model's speech probabilities, window by window, into speech start and end. Pure and
 * synchronous (no model), so its rules are tested on made-up probabilities.
 *
 * - Silence → a window at or above `threshold` begins a candidate speech. It becomes speech
 *   (`SpeechStart` at its first window) once it has lasted `minSpeechMs`, counting windows at or
 *   above `negativeThreshold` and gaps below it of up to {@link CANDIDATE_GAP_MS}; a longer gap
 *   drops it (a click, a cough).
 * - Speech → a window below `negativeThreshold` begins a silence, which a window at or above
 *   `threshold` ends (between the two, a silence in progress goes on: silero-vad's own rule). A
 *   silence of `silenceMs` ends the speech (`SpeechEnd` where the silence began). With `pauseMs`,
 *   a silence of that long is a pause first (`SpeechPause` where it began), and a window at or
 *   above `threshold` after it resumes the speech (`SpeechResume`).
 */
export class SpeechTracker {
  private readonly minSpeech: number
  private readonly silence: number
  private readonly maxGap: number
  private readonly pause?: number
  /** A `SpeechPause` went, and no `SpeechResume` or `SpeechEnd` since. */
  private paused = false
  private speaking = false
  /** First sample of the candidate speech (or of the speech, once started). */
  private speechStart?: number
  /** End of the candidate's last window at or above the negative threshold. */
  private voiceEnd = 0
  /** First sample of the silence in progress while speaking. */
  private silenceStart?: number

  constructor(private readonly settings: SpeechTrackerSettings) {
    this.minSpeech = settings.minSpeechMs * SAMPLES_PER_MS
    this.silence = settings.silenceMs * SAMPLES_PER_MS
    this.maxGap = Math.min(CANDIDATE_GAP_MS, settings.silenceMs) * SAMPLES_PER_MS
    if (settings.pauseMs !== undefined) this.pause = settings.pauseMs * SAMPLES_PER_MS
  }

  /**
   * Takes one window's probability.
   * @param start - the window's first sample, counted from the start of the audio.
   * @param end - the sample after its last one.
   */
  push(start: number, end: number, probability: number): TrackedEvent | undefined {
    const { threshold, negativeThreshold } = this.settings
    if (this.speaking) {
      if (probability >= threshold) {
        this.silenceStart = undefined
        if (this.paused) {
          this.paused = false
          return { type: 'SpeechResume', atMs: start / SAMPLES_PER_MS }
        }
      } else if (probability < negativeThreshold) this.silenceStart ??= start
      if (this.silenceStart !== undefined && end - this.silenceStart >= this.silence) {
        const atMs = this.silenceStart / SAMPLES_PER_MS
        this.reset()
        return { type: 'SpeechEnd', atMs }
      }
      if (
        this.pause !== undefined &&
        !this.paused &&
        this.silenceStart !== undefined &&
        end - this.silenceStart >= this.pause
      ) {
        this.paused = true
        return { type: 'SpeechPause', atMs: this.silenceStart / SAMPLES_PER_MS }
      }
      return undefined
    }
    if (this.speechStart === undefined) {
      if (probability < threshold) return undefined
      this.speechStart = start
    }
    if (probability >= negativeThreshold) this.voiceEnd = end
    else if (end - this.voiceEnd > this.maxGap) {
      this.speechStart = undefined
      return undefined
    }
    if (this.voiceEnd - this.speechStart < this.minSpeech) return undefined
    this.speaking = true
    return { type: 'SpeechStart', atMs: this.speechStart / SAMPLES_PER_MS }
  }

  /** Back to silence: the speech or candidate in progress is forgotten. */
  reset(): void {
    this.speaking = false
    this.paused = false
    this.speechStart = undefined
    this.silenceStart = undefined
  }
}
