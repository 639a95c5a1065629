import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import type { TTSWord } from '@openmic/core'
import type { SpokenText } from './heard-text.js'

/** PCM16 16 kHz mono: 32 bytes per ms. */
const BYTES_PER_MS = 32

/**
 * The client's playback of the assistant audio of one call, as the server sees it: where each
 * chunk sits in the stream of all audio sent, and when it is expected to play (back to back from
 * the moment it was sent, as a client plays it). A client that knows better reports its position
 * with `Played` (openmic client), which then wins over the estimate.
 */
export class ClientPlayback {
  /** Audio sent on this call so far, in ms: the position of the next chunk in the stream. */
  sentMs = 0
  /** When everything sent so far will have played (performance.now() clock). */
  playEndAt = 0
  private reported?: { ms: number; paused: boolean }

  /** Records a chunk sent now; returns its position in the stream and when it starts to play. */
  sent(bytes: number, now = performance.now()): { positionMs: number; startAt: number } {
    const ms = bytes / BYTES_PER_MS
    const startAt = Math.max(this.playEndAt, now)
    const positionMs = this.sentMs
    this.playEndAt = startAt + ms
    this.sentMs += ms
    return { positionMs, startAt }
  }

  /** The client's report: it played the stream up to `positionMs`, and paused there or not. */
  report(positionMs: number, paused = false): void {
    this.reported = { ms: positionMs, paused }
  }

  /** Where the client paused, if its last report says it did. */
  get pausedAtMs(): number | undefined {
    return this.reported?.paused ? this.reported.ms : undefined
  }

  /** The last report's position, once: a report describes one barge-in. */
  takeReport(): number | undefined {
    const reported = this.reported
    this.reported = undefined
    return reported?.ms
  }
}

/** What one answer said, and how much of its audio the client played. */
export class AnswerPlayback implements SpokenText {
  text = ''
  audioMs = 0
  complete = false
  words: TTSWord[] = []
  /** The assistant message the agent saved for this answer, held until it was heard. */
  message?: MicdropConversationMessage
  /** Items the agent added after that message, waiting behind it. */
  after: MicdropConversationItem[] = []
  /** Position of the answer's first audio in the call's stream of audio (ms). */
  private positionMs?: number
  private readonly chunks: Array<{ startAt: number; ms: number }> = []

  constructor(private readonly client: ClientPlayback) {}

  /** Records a chunk of this answer, sent now. */
  sent(bytes: number, now = performance.now()): void {
    const { positionMs, startAt } = this.client.sent(bytes, now)
    this.positionMs ??= positionMs
    const ms = bytes / BYTES_PER_MS
    this.chunks.push({ startAt, ms })
    this.audioMs += ms
  }

  /**
   * The client plays on from `positionMs` (in the call's audio) after a pause: what was sent of
   * this answer plays from now, back to back.
   */
  resumeFrom(positionMs: number, now = performance.now()): void {
    const played = this.playedMs(positionMs)
    this.chunks.length = 0
    this.chunks.push({ startAt: now - played, ms: this.audioMs })
    this.client.playEndAt = now + this.audioMs - played
  }

  /** When all audio sent for this answer will have played. */
  get playEndAt(): number {
    const last = this.chunks.at(-1)
    return last ? last.startAt + last.ms : 0
  }

  /**
   * How much of this answer's audio was played (ms): from the client's reported position in the
   * stream when there is one, else estimated from when each chunk was sent.
   */
  playedMs(reportedPositionMs: number | undefined, now = performance.now()): number {
    if (this.positionMs === undefined) return 0
    if (reportedPositionMs !== undefined) {
      return clamp(reportedPositionMs - this.positionMs, 0, this.audioMs)
    }
    let played = 0
    for (const chunk of this.chunks) played += clamp(now - chunk.startAt, 0, chunk.ms)
    return played
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
