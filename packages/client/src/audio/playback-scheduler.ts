/**
 * Decides when each received chunk plays, on the AudioContext clock (seconds), so chunks play back
 * to back without gaps. After an underrun (or at the start), playback starts `prebufferMs` later
 * than now, which absorbs the jitter of the next few chunks.
 */
export class PlaybackScheduler {
  private end = 0

  constructor(private prebufferMs = 60) {}

  /** Start time for a chunk of `duration` seconds, given the current time `now`. */
  schedule(now: number, duration: number): number {
    const start = this.end > now ? this.end : now + this.prebufferMs / 1000
    this.end = start + duration
    return start
  }

  /** Time at which everything scheduled so far has played. */
  get endTime(): number {
    return this.end
  }

  /** Forgets what was scheduled (after a stop, the next chunk prebuffers again). */
  reset(): void {
    this.end = 0
  }
}
