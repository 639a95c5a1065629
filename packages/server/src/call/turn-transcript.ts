export interface TurnTranscriptOptions {
  /** Whether the STT emits `TranscriptEnd` after the last `Transcript` of each utterance (read when needed). */
  signalsEnd: () => boolean
  /** Without the signal: how long after the last piece the transcript is taken as complete (ms). */
  graceMs: number
  /** After the user stopped speaking, the longest wait for the transcript to complete (ms). */
  timeoutMs: number
  /** The user turn's transcript is complete (or given up on): the caller takes it and answers. */
  onComplete: () => void
  log: (...message: unknown[]) => void
}

/**
 * The transcript of a user turn, which an STT may deliver in pieces, some after `StopSpeaking`.
 * The pieces are held and joined, so that one turn becomes one user message and gets one answer;
 * `onComplete` fires once the user is not speaking and no piece can still come:
 * - with an STT that signals it, when every utterance it transcribes got its `TranscriptEnd` (or the
 *   STT failed);
 * - otherwise `graceMs` after the last piece (or after `StopSpeaking`), or at once when the
 *   utterance had nothing to transcribe.
 * In both cases `timeoutMs` after `StopSpeaking` at most, when the STT stays silent.
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

  constructor(private readonly options: TurnTranscriptOptions) {}

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
    if (this.options.signalsEnd()) {
      if (this.open === 0) return this.complete()
    } else {
      if (!transcribing) return this.complete()
      if (this.heardSinceStart) this.startGrace()
    }
    this.timeoutTimer = setTimeout(() => {
      this.options.log('The transcript did not complete in time')
      this.open = 0
      this.complete()
    }, this.options.timeoutMs)
  }

  /** A `Transcript`: held (an empty one only tells that the STT is alive). */
  piece(text: string): void {
    const trimmed = text.trim()
    if (trimmed !== '') this.pieces.push(trimmed)
    this.heardSinceStart = true
    if (this.speaking) return
    if (this.waitingForEnd) {
      if (!this.options.signalsEnd()) this.startGrace()
    } else if (trimmed !== '') {
      // Late, after the turn's transcript was complete: nothing tells when the STT is done with it.
      this.waitingForEnd = true
      this.startGrace()
    }
  }

  /** A `TranscriptEnd`: one transcription is complete. */
  end(): void {
    if (this.open > 0) this.open--
    if (this.waitingForEnd && this.open === 0) this.complete()
  }

  /** The STT failed: no more pieces will come for the utterances it was transcribing. */
  failed(): void {
    this.open = 0
    if (this.waitingForEnd) this.complete()
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
    this.graceTimer = setTimeout(() => this.complete(), this.options.graceMs)
  }

  private complete() {
    this.stopWaiting()
    this.options.onComplete()
  }

  private stopWaiting() {
    this.waitingForEnd = false
    clearTimeout(this.graceTimer)
    clearTimeout(this.timeoutTimer)
    this.graceTimer = undefined
    this.timeoutTimer = undefined
  }
}
