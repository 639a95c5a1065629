import type { MicdropConversationItem } from '@openmic/core/protocol'
import type { AnswerRun } from '../answer/AnswerRun.js'
import type { HeardAnswers } from './heard-answers.js'
import type { AnswerPlayback } from './played-audio.js'
import type { CallOutput } from './types.js'

/** What the call lends the held answer. */
export interface HeldAnswerHost {
  output: CallOutput
  heard: HeardAnswers
  /** Cancels `run` if it is still the current run (TTS and agent stopped, as at a barge-in). */
  cancelRun(run: AnswerRun): void
}

/**
 * An answer held at `StartSpeaking` because the client paused its playback (`Played` with
 * `paused`): its audio stops going out, its run goes on. If the utterance turns out to be noise
 * (no transcript, an empty one, or the agent cancels the user message), `Resume` tells the client
 * to play on and the rest of the audio follows. Otherwise `Interrupt` tells it to drop what it
 * paused, and the answer is cut to what was heard, as at any barge-in.
 */
export class HeldAnswer {
  /** Audio the run produced while held, sent if it resumes. */
  private readonly audio: Array<{ audio: Buffer; first: boolean }> = []
  /** Items added while held (the user's words): sent after the verdict, after the cut answer. */
  private readonly items: MicdropConversationItem[] = []
  private timer?: NodeJS.Timeout
  private settled = false

  constructor(
    private readonly host: HeldAnswerHost,
    /** The run still producing the answer, if any (else all its audio was sent already). */
    readonly run: AnswerRun | undefined,
    /** The answer's playback, suspended (its message waits for the verdict), if any. */
    private readonly playback: AnswerPlayback | undefined,
    /** Where the client paused, in the call's assistant audio (ms). */
    private readonly pausedAtMs: number,
    private readonly timeoutMs: number
  ) {}

  get done(): boolean {
    return this.settled
  }

  /** Audio of the held run: kept, not sent. */
  hold(audio: Buffer, first: boolean): void {
    this.audio.push({ audio, first })
  }

  /** An item added while held: it waits for the verdict, to be sent in the conversation's order. */
  queue(item: MicdropConversationItem): boolean {
    if (this.settled) return false
    this.items.push(item)
    return true
  }

  /** The utterance ended: without a verdict within the timeout, the answer is interrupted. */
  startTimer(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.interrupt(), this.timeoutMs)
  }

  /** The user is speaking again: wait for the end of that utterance. */
  stopTimer(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** It was noise: the client plays on, the rest of the audio follows. */
  resume(): void {
    if (this.settled) return
    this.finish()
    this.host.output.send('Resume')
    this.sendItems()
    for (const { audio, first } of this.audio.splice(0)) {
      this.playback?.sent(audio.length)
      this.host.output.audio(audio, first)
    }
    // Once all of it is counted: the message goes when the rest has played from here
    this.host.heard.resume(this.playback, this.pausedAtMs)
  }

  /** A real interruption: the client drops the rest, the answer keeps what was heard. */
  interrupt(): void {
    if (this.settled) return
    this.finish()
    this.audio.length = 0
    this.host.output.send('Interrupt')
    if (this.run) this.host.cancelRun(this.run)
    this.host.heard.interrupt(this.playback, this.pausedAtMs)
    this.sendItems()
  }

  /** The call ends: nothing more is sent. */
  destroy(): void {
    this.finish()
    this.audio.length = 0
    this.items.length = 0
  }

  private sendItems() {
    for (const item of this.items.splice(0)) this.host.output.send('Message', item)
  }

  private finish() {
    this.settled = true
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
