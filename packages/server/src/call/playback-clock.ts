import type { MicdropPlayed } from '@openmic/core/protocol'

/** PCM16 16 kHz mono: 32 bytes per ms. */
export const BYTES_PER_MS = 32

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
  private reported?: Required<MicdropPlayed>

  /** A chunk of `ms` of audio goes out at `now`: its position, and when it starts to play. */
  send(ms: number, now: number): { positionMs: number; startAt: number } {
    const startAt = Math.max(this.playEndAt, now)
    const positionMs = this.sentMs
    this.playEndAt = startAt + ms
    this.sentMs += ms
    return { positionMs, startAt }
  }

  /** When a client that does not report its playback has surely played all that was sent. */
  get surelyPlayedAt(): number {
    return this.playEndAt + CLIENT_DELAY_MS
  }

  /** The client dropped what it had queued (a barge-in, `Interrupt`): nothing plays after `now`. */
  dropped(now: number): void {
    this.playEndAt = Math.min(this.playEndAt, now)
  }

  /** After a pause, the client plays on from `positionMs`: the rest of what was sent plays from `now`. */
  resumed(positionMs: number, now: number): void {
    this.playEndAt = now + Math.max(0, this.sentMs - positionMs)
  }

  /** The client's report: it played the stream up to `ms`, and paused there or not. */
  report(played: MicdropPlayed): void {
    this.reported = { ms: played.ms, paused: played.paused === true }
    this.reportedMs = Math.max(this.reportedMs, played.ms)
  }

  /** The last report, once: a report describes one barge-in. */
  takeReport(): Required<MicdropPlayed> | undefined {
    const reported = this.reported
    this.reported = undefined
    return reported
  }
}
