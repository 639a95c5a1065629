import type { MicdropPlayed } from '@openmic/core/protocol'

/**
 * How long after the estimate a client that does not report its playback (Micdrop's) may still
 * be playing: about a network's latency and a player's buffer.
 */
const CLIENT_DELAY_MS = 250

/**
 * The client's playback of a call's assistant audio, as the server sees it: the position of each
 * chunk in the stream of all audio sent on the connection (what `Played` and `Caption` count in),
 * and when it is expected to play: back to back from when it was sent, as a client plays it. What
 * the client reports (`Played`) wins over the estimate.
 */
export class PlaybackClock {
  /** Audio sent so far, in ms: the position of the next chunk. */
  sentMs = 0
  /** The furthest position the client said it played (its reports, paused or not). */
  reportedMs = 0
  /** When everything sent so far will have played (performance.now() clock). */
  private playEndAt = 0
  /** How long after `playEndAt` the client may still play: none once it dropped what it had. */
  private clientDelayMs = CLIENT_DELAY_MS
  private reported?: Required<MicdropPlayed>

  /** A chunk of `ms` of audio goes out at `now`: its position, and when it starts to play. */
  send(ms: number, now: number): { positionMs: number; startAt: number } {
    const startAt = Math.max(this.playEndAt, now)
    const positionMs = this.sentMs
    this.playEndAt = startAt + ms
    this.sentMs += ms
    this.clientDelayMs = CLIENT_DELAY_MS
    return { positionMs, startAt }
  }

  /** When a client that does not report its playback has surely played all that was sent. */
  get surelyPlayedAt(): number {
    return this.playEndAt + this.clientDelayMs
  }

  /**
   * The client dropped what it had queued (a barge-in, `Interrupt`): nothing plays after `now`,
   * but for what was on its way, when `inFlightMayPlay`: a Micdrop client plays what arrives once
   * the user stopped speaking, having no way to tell it from the next answer's audio.
   */
  dropped(now: number, inFlightMayPlay: boolean): void {
    if (inFlightMayPlay) {
      this.playEndAt = Math.min(this.playEndAt, now + CLIENT_DELAY_MS)
      this.clientDelayMs = CLIENT_DELAY_MS
    } else {
      this.playEndAt = Math.min(this.playEndAt, now)
      this.clientDelayMs = 0
    }
  }

  /** After a pause, the client plays on from `positionMs`: the rest of what was sent plays from `now`. */
  resumed(positionMs: number, now: number): void {
    this.playEndAt = now + Math.max(0, this.sentMs - positionMs)
    this.clientDelayMs = CLIENT_DELAY_MS
  }

  /** The client's report: it played the stream up to `ms`, and paused there or not. */
  report(played: MicdropPlayed): void {
    this.reported = { ms: played.ms, paused: played.paused === true }
    this.reportedMs = Math.max(this.reportedMs, played.ms)
  }

  /** The last report, not taken yet. */
  get lastReport(): Required<MicdropPlayed> | undefined {
    return this.reported
  }

  /** The last report, once: a report describes one barge-in. */
  takeReport(): Required<MicdropPlayed> | undefined {
    const reported = this.reported
    this.reported = undefined
    return reported
  }
}
