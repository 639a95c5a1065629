import type { MicdropCaption } from '@openmic/core/protocol'

/**
 * The words of the answer being spoken, shown in step with playback: each `Caption` piece waits
 * until the playback position reaches its `atMs`, then its text is appended.
 *
 * The position comes from the call (`position()`, the one `Played` reports) and only moves while
 * audio plays. One timer, set for the next piece, does the waiting: it is set again when a piece
 * comes, when playback resumes, and when it fires before the position got there (it runs on the
 * page's clock, the position on the speaker's).
 */
export class LiveCaption {
  private pending: MicdropCaption[] = []
  private revealed = ''
  private held = false
  /** Audio up to this position was dropped: pieces there, even late ones, were never heard. */
  private droppedUntilMs = 0
  private timer?: ReturnType<typeof setTimeout>

  /**
   * @param position - The playback position now, in ms of the connection's assistant audio.
   * @param onChange - Called when {@link LiveCaption.text} changed.
   */
  constructor(
    private readonly position: () => number,
    private readonly onChange: () => void
  ) {}

  /** What was revealed so far of the answer being spoken. */
  get text(): string {
    return this.revealed
  }

  /** A piece from the server: shown once playback reaches `atMs`. */
  add(caption: MicdropCaption): void {
    // In flight when its audio was dropped
    if (caption.atMs <= this.droppedUntilMs) return
    this.pending.push(caption)
    this.update()
  }

  /** Playback paused: the position stands still, and nothing is revealed until {@link release}. */
  hold(): void {
    // What playback reached before the pause was heard (the server counts it so): shown
    this.update()
    this.held = true
    this.cancelTimer()
  }

  /** Playback goes on where it paused. */
  release(): void {
    this.held = false
    this.update()
  }

  /**
   * The audio received up to `untilMs` and not played was dropped: its pieces are discarded.
   * Call it before the speaker drops its queue, so that what was played is still revealed.
   */
  drop(untilMs: number): void {
    this.update()
    this.pending = []
    this.held = false
    this.cancelTimer()
    this.droppedUntilMs = Math.max(this.droppedUntilMs, untilMs)
  }

  /** The answer's `Message` came: it replaces the caption. */
  clear(): void {
    this.pending = []
    this.held = false
    this.cancelTimer()
    if (this.revealed === '') return
    this.revealed = ''
    this.onChange()
  }

  /**
   * A new connection, whose audio is counted from 0 (or the call ended): nothing of the last one
   * will be played, and its `Message` cannot come any more.
   */
  reset(): void {
    this.droppedUntilMs = 0
    this.clear()
  }

  /** Reveals the pieces playback reached, and waits for the next one. */
  private update = () => {
    this.cancelTimer()
    if (this.held || this.pending.length === 0) return
    const position = this.position()
    let changed = false
    while (this.pending.length > 0 && this.pending[0]!.atMs <= position) {
      this.revealed += this.pending.shift()!.text
      changed = true
    }
    const next = this.pending[0]
    // Playback runs no faster than the clock: the next piece is due no sooner than this
    if (next) this.timer = setTimeout(this.update, Math.max(1, Math.ceil(next.atMs - position)))
    if (changed) this.onChange()
  }

  private cancelTimer() {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
