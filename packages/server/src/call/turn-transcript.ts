import type { STT } from '@openmic/core'

/** The call a turn's transcript belongs to: what it reads, and what it tells. */
export interface TurnTranscriptOwner {
  /** The STT: whether it emits `TranscriptEnd` after each utterance's last `Transcript` is read when needed. */
  readonly stt: Pick<STT, 'signalsTranscriptEnd'>
  readonly output: { log(...message: unknown[]): void }
  /**
   * The user is not speaking and the turn has text to {@link TurnTranscript.take} (or, `settled`,
   * is over without more). `settled` false: an STT that cannot signal may still send a piece of
   * the same turn within the grace; this is called again then, and with `settled` at its end.
   */
  onTurnText(settled: boolean): void
}

/**
 * The transcript of a user turn, which an STT may deliver in pieces, some after `StopSpeaking`.
 * The pieces are held and joined, so that one turn becomes one user message and gets one answer.
 * Once the user is not speaking, the owner's `onTurnText(settled)` tells when to take them:
 * - with an STT that signals it, settled when every utterance it transcribes got its
 *   `TranscriptEnd` (or the STT failed);
 * - otherwise at each piece (not settled: the caller may start answering, and holds the answer's
 *   output), then settled `graceMs` after the last piece (or at once when the utterance had nothing
 *   to transcribe).
 * In both cases settled `timeoutMs` after `StopSpeaking` at most, when the STT stays silent.
 *
 * A piece that comes after that (an STT late beyond its own signal or the grace) starts a new
 * wait, so that it too is joined with whatever follows it within the grace.
 */
export class TurnTranscript {
  private pieces: string[] = []
  /** `transcribe()` calls whose `TranscriptEnd` has not come (with an STT that signals it). */
  private open = 0
  /** The user is not speaking and the turn's transcript is not complete yet. */
  private waitingForEnd = false
  /** A piece (even an empty one) came since the last utterance began. */
  private heardSinceStart = false
  private speaking = false
  private graceTimer?: NodeJS.Timeout
  private timeoutTimer?: NodeJS.Timeout

  /**
   * @param graceMs - without the STT's signal: how long after the last piece the transcript is
   *   taken as complete (ms)
   * @param timeoutMs - after the user stopped speaking, the longest wait for the transcript (ms)
   */
  constructor(
    private readonly owner: TurnTranscriptOwner,
    private readonly graceMs: number,
    private readonly timeoutMs: number
  ) {}

  /** True while the user stopped speaking and the transcript may still grow. */
  get waiting(): boolean {
    return this.waitingForEnd
  }

  /** Pieces are held, not yet taken. */
  get pending(): boolean {
    return this.pieces.length > 0
  }

  /** The user started speaking: nothing completes until they stop. Held pieces are kept. */
  userStarted(): void {
    this.stopWaiting()
    this.speaking = true
    this.heardSinceStart = false
  }

  /** An utterance's audio started to be transcribed (its `transcribe()` was called). */
  transcriptionStarted(): void {
    this.open++
  }

  /**
   * The user stopped speaking (or muted). `transcribing`: the utterance's audio went to the STT, so
   * its transcript may still come.
   */
  userStopped(transcribing: boolean): void {
    this.stopWaiting()
    this.speaking = false
    this.waitingForEnd = true
    if (this.owner.stt.signalsTranscriptEnd) {
      if (this.open === 0) return this.settle()
    } else {
      if (!transcribing) return this.settle()
      if (this.heardSinceStart) this.startGrace()
      if (this.pending) this.owner.onTurnText(false)
      if (this.graceTimer) return
    }
    this.timeoutTimer = setTimeout(() => {
      this.owner.output.log('The transcript did not complete in time')
      this.open = 0
      this.settle()
    }, this.timeoutMs)
  }

  /** A `Transcript`: held (an empty one only tells that the STT is alive). */
  piece(text: string): void {
    const trimmed = text.trim()
    if (trimmed !== '') this.pieces.push(trimmed)
    this.heardSinceStart = true
    if (this.speaking) return
    const signals = this.owner.stt.signalsTranscriptEnd
    if (!this.waitingForEnd) {
      if (trimmed === '') return
      // Late, after the turn's transcript was complete: nothing tells when the STT is done with it.
      this.waitingForEnd = true
      this.startGrace()
    } else if (!signals) {
      this.startGrace()
    }
    if (!signals && trimmed !== '') this.owner.onTurnText(false)
  }

  /** A `TranscriptEnd`: one transcription is complete. */
  end(): void {
    if (this.open > 0) this.open--
    if (this.waitingForEnd && this.open === 0) this.settle()
  }

  /**
   * The STT failed a transcription (its oldest open one, as `TranscriptEnd` ends it): no more
   * pieces of it come. Returns true when it was the last one open. An STT that does not signal
   * ends cannot tell which one failed: none is waited for any more.
   */
  failed(): boolean {
    if (!this.owner.stt.signalsTranscriptEnd) {
      this.open = 0
      if (this.waitingForEnd) this.settle()
      return true
    }
    const last = this.open <= 1
    this.end()
    return last
  }

  /** The joined pieces, which are then no longer held ('' when none). */
  take(): string {
    const text = this.pieces.join(' ')
    this.pieces = []
    return text
  }

  destroy(): void {
    this.stopWaiting()
    this.pieces = []
  }

  private startGrace() {
    clearTimeout(this.graceTimer)
    clearTimeout(this.timeoutTimer)
    this.timeoutTimer = undefined
    this.graceTimer = setTimeout(() => this.settle(), this.graceMs)
  }

  private settle() {
    this.stopWaiting()
    this.owner.onTurnText(true)
  }

  private stopWaiting() {
    this.waitingForEnd = false
    clearTimeout(this.graceTimer)
    clearTimeout(this.timeoutTimer)
    this.graceTimer = undefined
    this.timeoutTimer = undefined
  }
}
