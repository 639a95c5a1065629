import type { Agent } from '@openmic/core'
import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import type { AnswerOutcome } from '../answer/AnswerRun.js'
import { heardText } from './heard-text.js'
import { AnswerPlayback, ClientPlayback } from './played-audio.js'
import type { CallOutput } from './types.js'

/** What the metadata of an assistant message cut by a barge-in holds. */
export interface InterruptedMetadata {
  interrupted: true
  /** The whole answer, as the agent wrote it. */
  fullContent?: string
  /** How much of the answer's audio was played before the cut (ms). */
  heardMs: number
}

/**
 * Keeps what the user heard of each answer: the assistant message of an answer is held until its
 * audio has played (as the client reports it, or as estimated from when it was sent), and a
 * barge-in before that cuts it to the words played. The conversation, the `Message` frame (so
 * the client, the app's persistence and the recorder) all get the same cut message, once.
 */
export class HeardAnswers {
  readonly client = new ClientPlayback()
  /** The last answer, until its message was sent. */
  private pending?: AnswerPlayback
  /** An answer paused by the client while it decides whether the user really interrupted. */
  private held?: AnswerPlayback
  private releaseTimer?: NodeJS.Timeout

  constructor(
    private readonly agent: Agent,
    private readonly output: CallOutput,
    /** Called after a held message was sent (an `EndCall` may wait for it). */
    private readonly onReleased: () => void
  ) {}

  /** True while an answer's message waits for its audio to be played. */
  get holding(): boolean {
    return this.pending?.message !== undefined || this.held?.message !== undefined
  }

  /** Whether the last answer may still be playing on the client: there is something to pause. */
  get playing(): boolean {
    if (this.pending && !this.pending.complete) return true
    return performance.now() < this.client.playEndAt
  }

  /** A new run starts: its audio is tracked; an answer's message will be held. */
  begin(isAnswer: boolean): AnswerPlayback {
    // The client plays all audio already sent: a cancelled answer keeps what it received.
    const previous = this.pending
    if (previous && !previous.complete) this.cut(previous.audioMs)
    else this.release()
    const playback = new AnswerPlayback(this.client)
    if (isAnswer) this.pending = playback
    return playback
  }

  /** The agent saved `message` for the answer being spoken: hold it. False if not held. */
  hold(playback: AnswerPlayback | undefined, message: MicdropConversationMessage): boolean {
    if (!this.tracks(playback)) return false
    if (playback.message) this.sendHeld(playback) // a second one: the first is final
    playback.message = message
    return true
  }

  /**
   * An item (a tool call, its result) of the answer being spoken, after its held message: it
   * waits behind it, so that items are sent in the conversation's order. False if not held.
   */
  holdAfter(playback: AnswerPlayback | undefined, item: MicdropConversationItem): boolean {
    if (!this.tracks(playback) || !playback.message) return false
    playback.after.push(item)
    return true
  }

  /** The run of `playback` ended: its message goes once its audio has played. */
  ended(playback: AnswerPlayback | undefined, outcome: AnswerOutcome): void {
    if (!this.tracks(playback)) return
    playback.complete = outcome === 'spoken'
    if (playback === this.held) return // resumed or cut later
    if (outcome !== 'spoken') return this.release()
    this.scheduleRelease(playback)
  }

  /** The client paused the last answer: its message waits for the verdict. */
  suspend(): AnswerPlayback | undefined {
    clearTimeout(this.releaseTimer)
    this.held = this.pending
    this.pending = undefined
    return this.held
  }

  /** The client plays on from `pausedAtMs` (a position in the call's audio). */
  resume(playback: AnswerPlayback | undefined, pausedAtMs: number): void {
    if (!playback || playback !== this.held) return
    this.held = undefined
    this.release()
    this.pending = playback
    playback.resumeFrom(pausedAtMs)
    if (playback.complete) this.scheduleRelease(playback)
  }

  /** The client dropped the rest of the paused answer: it keeps what was played. */
  interrupt(playback: AnswerPlayback | undefined, pausedAtMs: number): void {
    if (!playback || playback !== this.held) return
    this.held = undefined
    this.cutPlayback(playback, playback.playedMs(pausedAtMs))
  }

  /**
   * The user interrupted (or left): the answer still playing keeps what was played of it,
   * cut at the end of a word, flagged `interrupted` in its metadata. Nothing heard: no message.
   */
  cut(playedUpToMs?: number): void {
    const playback = this.pending
    this.pending = undefined
    clearTimeout(this.releaseTimer)
    const reported = this.client.takeReport()
    if (!playback) return
    this.cutPlayback(playback, playedUpToMs ?? playback.playedMs(reported))
  }

  private cutPlayback(playback: AnswerPlayback, playedMs: number) {
    const message = playback.message
    if (playback.complete && playedMs >= playback.audioMs) return this.sendHeld(playback)
    const content = heardText(playback, playedMs)
    const metadata: InterruptedMetadata = {
      interrupted: true,
      fullContent: message?.content ?? playback.text,
      heardMs: Math.round(playedMs),
    }
    if (!message) {
      // The agent was cancelled before it saved its answer: save what was heard of it.
      if (content) this.agent.addAssistantMessage(content, metadata)
      this.onReleased()
      return
    }
    if (!content) {
      const index = this.agent.conversation.indexOf(message)
      if (index !== -1) this.agent.conversation.splice(index, 1)
      playback.message = undefined
    } else {
      // The conversation holds this very object: the model sees the cut answer from now on.
      message.content = content
      message.metadata = { ...message.metadata, ...metadata }
    }
    this.sendHeld(playback)
  }

  destroy(): void {
    clearTimeout(this.releaseTimer)
    this.pending = undefined
    this.held = undefined
  }

  private tracks(playback: AnswerPlayback | undefined): playback is AnswerPlayback {
    return !!playback && (playback === this.pending || playback === this.held)
  }

  private scheduleRelease(playback: AnswerPlayback) {
    clearTimeout(this.releaseTimer)
    const delay = playback.playEndAt - performance.now()
    if (delay <= 0) return this.release()
    this.releaseTimer = setTimeout(() => this.release(), delay)
  }

  /** Sends the held message as it is (all of it was heard, or a new run starts). */
  private release() {
    clearTimeout(this.releaseTimer)
    const playback = this.pending
    this.pending = undefined
    if (playback) this.sendHeld(playback)
  }

  /** Sends the held message, then the items that waited behind it. */
  private sendHeld(playback: AnswerPlayback) {
    const items = [playback.message, ...playback.after]
    playback.message = undefined
    playback.after = []
    for (const item of items) if (item) this.output.send('Message', item)
    // Even with nothing to send (nothing was heard): an EndCall may wait for this answer
    this.onReleased()
  }
}
