import type { HrTime } from '@opentelemetry/api'

/**
 * Turns the call's performance.now() instants into span times. The offset to the epoch is taken
 * once per call, so that every span of it sits on one clock and its durations are exactly the
 * differences the `Metrics` event reports; an HrTime is passed, never a bare number, which the SDK
 * would have to guess the meaning of.
 */
export class SpanClock {
  private readonly epochOffsetMs = Date.now() - performance.now()

  /** The instant `at` (performance.now(); default: now) as an HrTime. */
  time(at: number = performance.now()): HrTime {
    const epochMs = this.epochOffsetMs + at
    const seconds = Math.floor(epochMs / 1000)
    return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)]
  }
}
