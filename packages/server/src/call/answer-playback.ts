/** A run of an answer's chunks that play back to back: from `startAt`, for `ms`. */
interface Stretch {
  startAt: number
  ms: number
}

/**
 * Where one answer's audio sits in the call's stream of audio and how much of it the client
 * played: reported, or estimated from when each chunk was sent. It ends (nothing more counts as
 * played) when the answer is cut or the client hangs up.
 */
export class AnswerPlayback {
  /** Position of the answer's first audio in the call's stream (ms), once some was sent. */
  startMs?: number
  /** Audio of the answer sent, in ms. */
  sentMs = 0
  private stretches: Stretch[] = []
  private endedAt?: number

  /** A chunk of `ms` was sent at `positionMs` in the call's stream, to play from `startAt`. */
  sent(ms: number, positionMs: number, startAt: number): void {
    this.startMs ??= positionMs
    this.sentMs += ms
    const last = this.stretches.at(-1)
    if (last && last.startAt + last.ms === startAt) last.ms += ms
    else this.stretches.push({ startAt, ms })
  }

  /** Position (in the call's stream) where the audio sent of the answer ends. */
  get endMs(): number | undefined {
    return this.startMs === undefined ? undefined : this.startMs + this.sentMs
  }

  /** When all audio sent of the answer will have played. */
  get playEndAt(): number {
    const last = this.stretches.at(-1)
    return last ? last.startAt + last.ms : 0
  }

  /**
   * How much of the answer was played by `now` (ms): from the client's reported position in the
   * call's stream when there is one, else estimated.
   */
  playedMs(now: number, reportedMs?: number): number {
    if (this.startMs === undefined) return 0
    if (reportedMs !== undefined) return clamp(reportedMs - this.startMs, 0, this.sentMs)
    const at = Math.min(now, this.endedAt ?? now)
    let played = 0
    for (const stretch of this.stretches) played += clamp(at - stretch.startAt, 0, stretch.ms)
    return played
  }

  /** After a pause at `playedMs` into the answer, the client plays on from `now`. */
  resumed(playedMs: number, now: number): void {
    this.stretches = [{ startAt: now - playedMs, ms: this.sentMs }]
  }

  /** The answer was cut or the client left: nothing of it plays after `now`. */
  end(now: number): void {
    this.endedAt ??= now
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
