// The turn rules of one call, with no socket in it: user turns and barge-ins in, answers out
// (docs/protocol.md, Turn rules and Barge-in).

import { Readable } from 'node:stream'
import type { Agent, MicdropToolCall, STT, TTS, TTSWord } from '@openmic/core'
import type {
  MicdropConversationMessage,
  MicdropConversationToolItem,
  MicdropPlayed,
} from '@openmic/core/protocol'
import { turnMetrics, type TurnClock } from '../metrics/turn-metrics.js'
import type { TurnFailure } from '../metrics/turn-report.js'
import { Answer, type AnswerHost, type AnswerKind } from './Answer.js'
import { Outbox } from './outbox.js'
import { PlaybackClock } from './playback-clock.js'
import type { CallControllerOptions, CallOutput } from './types.js'
import { TurnEnd } from './turn-end.js'
import { TurnTranscript, type TurnTranscriptOwner } from './turn-transcript.js'
import { Utterance } from './Utterance.js'

/** One user turn: its message (one, however many pieces its text came in) and the answer to it. */
interface UserTurn {
  clock: TurnClock
  message?: MicdropConversationMessage
  /** The answer to it, until it is final. */
  answer?: Answer
  /** How its final answer ended, what the turn reads of it (the answer itself is let go). */
  answered?: { wentOut: boolean; reachedClient: boolean }
  /** Its transcription failed (for its report). */
  failure?: TurnFailure
}

/** The client paused its playback over the user's speech: where, and the answers it holds. */
interface Pause {
  atMs: number
  answers: Answer[]
  /** The barge-ins it settles (the one that paused, and those over it): one frame each. */
  bargeIns: number
  /** After the utterance that paused them ended: no verdict by then is an interruption. */
  timer?: NodeJS.Timeout
}

/**
 * The turn-taking of one call, without any socket: user utterances to the STT, transcripts to the
 * agent, answers to the TTS, barge-in, and the rule that every user turn ends with an answer or a
 * `SkipAnswer`. Each answer is one {@link Answer}; the controller keeps the answers the client may
 * still hear (the newest one is the one being produced) and decides what the user's speech does to
 * them. The socket side is `MicdropServer`.
 */
export class CallController implements AnswerHost, TurnTranscriptOwner {
  /** Audio frames received outside an utterance (dropped). */
  droppedAudioFrames = 0
  /** The client shows captions (its `Hello`), and takes each answer's `Message` once final. */
  captions = false
  /** The client tells when its playback runs out (its `Hello`): an answer is heard when it says so. */
  reportsPlaybackEnd = false
  /**
   * The client said `Hello` (an openmic client): each of its barge-ins is settled, once, in order
   * (`Interrupt` after the last audio of what was cut, or the pause's verdict).
   */
  saidHello = false
  /**
   * The client spoke first (a frame, or its params): it is known whether it is openmic's (it says
   * `Hello` first). Until then an answer is not shown before it is final.
   */
  known = false
  readonly clock = new PlaybackClock()
  readonly outbox: Outbox
  readonly agent: Agent
  readonly tts: TTS
  readonly output: CallOutput
  readonly stt: STT
  private speaking = false
  private muted = false
  private utterance?: Utterance
  /** The pieces of the user's words, until they are taken into a user message. */
  private readonly transcript: TurnTranscript
  private turn?: UserTurn
  /** The user paused (preemptive answers): the turn's end is not confirmed yet. */
  private turnEnd?: TurnEnd
  /**
   * A turn that paused, confirmed over while its last words were still being transcribed: its
   * user message is held until they come, so that the client and the store see one message with
   * all the words, not one replaced by another.
   */
  private turnTextAwaited?: TurnEnd
  /** A user message was added and has not been answered yet. */
  private unanswered = false
  /** The answers the client may still hear, oldest first: not final yet. */
  private answers: Answer[] = []
  /** The agent's latest answer: it answers every user message before it. */
  private latestAgentAnswer?: Answer
  /** The client holds answers paused, awaiting the verdict on the user's speech. */
  private pause?: Pause
  /**
   * How much audio was sent when the last `Interrupt` went: the client drops all of it when that
   * frame comes, so it cannot be paused earlier in the audio after that.
   */
  private interruptedAtMs = 0
  private endCallPending = false
  /** `EndCall` went: the client ends the call once it played what it has; no turn is answered. */
  private endCallSent = false
  /** `EndCall` waits for a client that does not report its playback to have played the goodbye. */
  private endCallTimer?: NodeJS.Timeout
  private destroyed = false
  /** Settles the promises of `speak()` and `answer()`, by answer (made at the first). */
  private waiting?: Map<Answer, () => void>

  private readonly preemptive: boolean
  private readonly resumeAfterNoise: boolean
  private readonly resumeTimeoutMs: number

  constructor(options: CallControllerOptions) {
    this.preemptive = options.preemptive
    this.resumeAfterNoise = options.resumeAfterNoise
    this.resumeTimeoutMs = options.resumeTimeoutMs
    this.agent = options.agent
    this.tts = options.tts
    this.stt = options.stt
    this.output = options.output
    this.outbox = new Outbox(options.output)
    this.transcript = new TurnTranscript(
      this,
      options.transcriptGraceMs,
      options.transcriptTimeoutMs
    )
    this.listen()
  }

  /** An answer is being produced or may still be playing: a barge-in now interrupts it. */
  get answerInProgress(): boolean {
    return this.answers.length > 0
  }

  /** An answer is being spoken or played, or a user turn is open (speaking, or waiting for its text). */
  get busy(): boolean {
    return (
      this.answers.length > 0 ||
      !this.outbox.empty ||
      // What was sent may still be playing on a client that does not tell
      (!this.reportsPlaybackEnd && performance.now() < this.clock.surelyPlayedAt) ||
      this.endCallPending ||
      this.speaking ||
      this.turnEnd !== undefined ||
      this.transcript.waiting ||
      this.transcript.pending
    )
  }

  // ---- client commands ----

  /** The client sent a frame: previews may go to a client that did not say `Hello`. */
  clientKnown(): void {
    if (this.known) return
    this.known = true
    this.outbox.flush()
  }

  startSpeaking(): void {
    // A new utterance after a pause: the pause was the end of the turn
    if (this.turnEnd?.paused) this.stopSpeaking()
    this.closeUtterance()
    const played = this.clock.takeReport()
    // Words said before the last ones were settled belong to the same turn
    if (!this.transcript.waiting) this.turn = undefined
    this.transcript.userStarted()
    this.speaking = true
    this.muted = false
    // Speaking again over answers still held: they stay held until this utterance's verdict, and
    // what answered the words since is cut (nothing of it was played: the client is paused)
    if (this.pause) {
      clearTimeout(this.pause.timer)
      this.pause.bargeIns++
      const held = this.pause.answers
      for (const answer of [...this.answers]) if (!held.includes(answer)) answer.interrupt()
    } else if (played?.paused) {
      // Paused before it got the last Interrupt (still waiting for it): it pauses what comes after
      this.holdAnswers(Math.max(played.ms, this.interruptedAtMs))
    } else this.cutAnswers(played)
    this.utterance = new Utterance(this.stt, this.output)
  }

  /** User audio; returns false when it was dropped (no open utterance). */
  userAudio(audio: Buffer): boolean {
    if (!this.utterance) {
      if (this.turnEnd?.paused) return false // the silence of a pause
      this.droppedAudioFrames++
      return false
    }
    const first = this.utterance.bytes === 0
    // Counted before the STT sees the audio: it may emit the whole transcript from within write().
    if (first) this.transcript.transcriptionStarted()
    this.utterance.write(audio)
    if (first && this.utterance.failed) this.transcript.end() // transcribe() threw: nothing comes
    return true
  }

  stopSpeaking(): void {
    if (this.turnEnd?.paused) return this.confirmPause()
    this.speaking = false
    // The client waits for this turn's answer or SkipAnswer, even after a Mute.
    this.muted = false
    const utterance = this.closeUtterance()
    this.releaseTurnEnd(true, transcribing(utterance))
    this.awaitVerdict()
    this.userTurn().clock = { stopAt: performance.now() }
    this.transcript.userStopped(transcribing(utterance))
  }

  /**
   * The user paused inside their utterance (preemptive answers only): the utterance so far is
   * ended to the STT, and its words are answered at once, the answer held (gated) until the end
   * of the turn is confirmed (`stopSpeaking`) or dropped if the user goes on (`resumeSpeaking`).
   * Returns whether the utterance was ended here (else it goes on: not preemptive, or no utterance).
   */
  pauseSpeaking(): boolean {
    if (!this.preemptive || !this.speaking || this.turnEnd?.paused) return false
    const now = performance.now()
    if (!this.turnEnd) {
      this.turnEnd = new TurnEnd()
      this.userTurn().clock = { stopAt: now }
    }
    this.userTurn().clock.pausedAt = now
    this.turnEnd.paused = true
    this.speaking = false
    const utterance = this.closeUtterance()
    this.transcript.userStopped(transcribing(utterance))
    return true
  }

  /**
   * The user went on after a pause: the same turn goes on in a new utterance (its transcript
   * joins the turn's text), and the answer held since the pause is dropped, nothing of it seen.
   */
  resumeSpeaking(): void {
    const turnEnd = this.turnEnd
    if (!turnEnd?.paused) return
    turnEnd.paused = false
    turnEnd.endsCall = false
    turnEnd.noise = false
    // First: the dropped answer's end must not answer the turn
    this.speaking = true
    this.transcript.userStarted()
    const turn = this.turn
    if (turn?.answer?.phase === 'gated') {
      turn.answer.drop()
      // Whatever it did, the whole turn is answered at its end
      turn.answered = undefined
      if (turn.message) this.unanswered = true
    }
    this.utterance = new Utterance(this.stt, this.output)
  }

  mute(): void {
    this.speaking = false
    this.muted = true
    const utterance = this.closeUtterance()
    this.releaseTurnEnd(false)
    if (this.pause) {
      this.pause.bargeIns++
      this.interruptHeld()
    } else this.cutAnswers(this.clock.takeReport())
    // Its transcript is still added to the conversation, unanswered until the user speaks again.
    this.transcript.userStopped(transcribing(utterance))
  }

  /**
   * The client played the call's assistant audio up to `played.ms` (`Played`): before a barge-in
   * (the next `StartSpeaking` or `Mute` takes it), or when its playback ran out.
   */
  played(played: MicdropPlayed): void {
    this.clock.report(played)
    if (!played.paused) for (const answer of [...this.answers]) answer.playedTo(played.ms)
  }

  /**
   * How much of the answer playing the user heard by now (ms): what a barge-in now keeps of it,
   * by the client's last report (or where it paused) or the estimate; 0 if none was playing.
   */
  heardNow(): number {
    const reported =
      this.pause?.atMs ?? this.clock.lastReport?.ms ?? (this.reportsPlaybackEnd ? 0 : undefined)
    const now = performance.now()
    for (let i = this.answers.length - 1; i >= 0; i--) {
      const heard = this.answers[i]!.heardAt(now, reported)
      if (heard !== undefined) return Math.round(heard)
    }
    return 0
  }

  /**
   * The user speaks (or mutes): the answers a client that does not report its playback has
   * played out by now end heard first, so that speaking right at an answer's end (before its
   * end-of-playback timer fired) is not a barge-in over it.
   */
  endPlayedOut(): void {
    if (this.answers.length === 0) return
    const now = performance.now()
    for (const answer of [...this.answers]) answer.endIfPlayedOut(now)
  }

  /** The client left: the answers it was playing keep what it heard. */
  hangUp(): void {
    // What the user said before they left stands; what answered it was never heard
    this.releaseTurnEnd(false)
    this.releaseTurnText()
    clearTimeout(this.pause?.timer)
    const played = this.clock.takeReport()?.ms ?? this.pause?.atMs
    this.pause = undefined
    for (const answer of [...this.answers]) answer.interrupt(played)
  }

  /** After a pause, the end of the turn is confirmed: the answer held since goes at once. */
  private confirmPause() {
    this.releaseTurnEnd(true, this.transcript.waiting)
    this.awaitVerdict()
    this.userTurn().clock.stopAt = performance.now()
    // Its text came during the pause: the turn is answered now (else when it is settled)
    if (!this.transcript.waiting) this.onTurnText(true)
  }

  /**
   * The turn's end is known (`confirmed`, else a mute or hang-up that drops what
   * answered the pause): what waited for it goes; its user message only once its words are all
   * in, if some are still being transcribed (`textComing`).
   */
  private releaseTurnEnd(confirmed: boolean, textComing = false) {
    const turnEnd = this.turnEnd
    if (!turnEnd) return
    this.turnEnd = undefined
    if (confirmed && textComing) {
      this.releaseTurnText()
      this.turnTextAwaited = turnEnd
    } else turnEnd.confirm()
    this.outbox.flush()
    if (!confirmed) return
    if (turnEnd.noise) this.resumeHeld()
    if (turnEnd.endsCall) {
      this.endCallPending = true
      this.flushEndCall()
    }
  }

  /** The utterance over paused answers ended: no verdict within the timeout is an interruption. */
  private awaitVerdict() {
    if (!this.pause) return
    this.pause.timer = setTimeout(() => this.interruptHeld(), this.resumeTimeoutMs)
  }

  // ---- app commands ----

  /** Speaks a text (not added to the conversation), replacing the current answer. */
  speak(text: string | Readable): Promise<void> {
    const stream = typeof text === 'string' ? Readable.from([text]) : text
    return this.whenProduced(this.startAnswer('speech', { text: stream }))
  }

  /** Speaks the call's first message: added to the conversation, cut if the user interrupts it. */
  greet(text: string): void {
    this.startAnswer('greeting', { text: Readable.from([text]), message: text })
  }

  /** Answers the conversation as it is now, replacing the current answer. */
  answer(): Promise<void> {
    return this.whenProduced(this.startAnswer('answer'))
  }

  /** Cancels the current answer; `SkipAnswer` tells the client no answer is coming. */
  cancel(): void {
    const answer = this.current
    if (!answer?.producing) return
    const unanswered = this.unanswered
    // The client holds it paused: it drops what it holds
    if (answer.phase === 'held') this.interruptHeld()
    answer.settle()
    this.unanswered = unanswered // cancelled on purpose: not to be answered again later
    if (!this.speaking) this.output.send('SkipAnswer')
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    clearTimeout(this.pause?.timer)
    clearTimeout(this.endCallTimer)
    this.pause = undefined
    this.transcript.destroy()
    this.closeUtterance()
    for (const answer of [...this.answers]) answer.interrupt()
    this.outbox.clear()
    for (const resolve of this.waiting?.values() ?? []) resolve()
    this.waiting = undefined
    this.unlisten()
  }

  // ---- answers ----

  /**
   * Starts an answer. The answers before it are done (the client plays what it was sent of them),
   * unless the client holds them paused, awaiting their verdict.
   */
  private startAnswer(
    kind: AnswerKind,
    given: { text?: Readable; message?: string; turn?: UserTurn; gated?: boolean } = {}
  ): Answer {
    // The held answer's production needs the TTS: the user's words are answered instead
    if (this.current?.producing && this.current.phase === 'held') this.interruptHeld()
    const before = [...this.answers]
    const forUser = kind === 'answer' && this.unanswered
    if (forUser) this.unanswered = false
    const answer = new Answer(this, {
      kind,
      forUser,
      gated: given.gated ?? false,
      turn: given.turn?.clock,
      requestedAt: performance.now(),
    })
    if (given.turn) {
      given.turn.answer = answer
      given.turn.answered = undefined
    }
    if (kind === 'answer') this.latestAgentAnswer = answer
    // In the list before the others are done: an EndCall waiting for them waits for this one too
    this.answers.push(answer)
    for (const older of before) if (older.phase !== 'held') older.settle()
    // A synchronous agent saves its answer, skips it or ends the call within answer(): its
    // events find the answer already current.
    if (given.message) this.agent.addAssistantMessage(given.message)
    if (given.text) {
      answer.start(given.text)
      return answer
    }
    let text: Readable
    try {
      text = this.agent.answer()
    } catch (error) {
      this.output.log('Agent answer() threw:', error)
      answer.failToStart()
      return answer
    }
    answer.start(text)
    return answer
  }

  /** A promise settled when `answer`'s production ends (at once if it already did). */
  private whenProduced(answer: Answer): Promise<void> {
    if (!answer.producing) return Promise.resolve()
    return new Promise((resolve) => (this.waiting ??= new Map()).set(answer, resolve))
  }

  /** Settles the promise of the `speak()` or `answer()` that started `answer`, if any. */
  private settleWaiting(answer: Answer) {
    this.waiting?.get(answer)?.()
    this.waiting?.delete(answer)
  }

  /** The newest answer, while it is not final: the one the agent and the TTS work for. */
  private get current(): Answer | undefined {
    return this.answers.at(-1)
  }

  /**
   * Barge-in: the client dropped what it had queued; every answer keeps what it played, as its
   * report says (a client that reports its playback and sent none had received nothing), or as
   * estimated.
   */
  private interruptAnswers(played: MicdropPlayed | undefined) {
    if (this.answers.length === 0) return
    const ms = played?.ms ?? (this.reportsPlaybackEnd ? 0 : undefined)
    // First: an EndCall the cut releases waits for nothing more to play (an openmic client
    // discards what was on its way)
    this.clock.dropped(performance.now(), !this.saidHello)
    for (const answer of [...this.answers]) answer.interrupt(ms)
  }

  /**
   * The client dropped what it was playing (`StartSpeaking` or `Mute`): the answers are cut, and
   * an openmic client is told where their audio ends (`Interrupt`, after every byte of it), so it
   * plays none of what was still on its way and the next answer's audio from its start.
   */
  private cutAnswers(played: MicdropPlayed | undefined) {
    if (this.saidHello) this.sendInterrupt()
    this.interruptAnswers(played)
  }

  /** `Interrupt` once per barge-in it settles: the client drops all the audio sent before it. */
  private sendInterrupt(bargeIns = 1) {
    for (let i = 0; i < bargeIns; i++) this.output.send('Interrupt')
    this.interruptedAtMs = this.clock.sentMs
  }

  /**
   * The client paused its playback at `pausedAtMs` over the user's speech: the answers it may still
   * play are held until the verdict (noise: `Resume`; otherwise `Interrupt`). Nothing to hold, or
   * holding is off: `Interrupt` at once.
   */
  private holdAnswers(pausedAtMs: number) {
    if (this.current?.phase === 'gated') this.current.discard()
    const holdable = this.resumeAfterNoise ? [...this.answers] : []
    if (holdable.length === 0 || pausedAtMs >= this.clock.sentMs) {
      // Holding is off (the client was not told it is on), or nothing was left to play
      this.sendInterrupt()
      this.interruptAnswers({ ms: pausedAtMs })
      return
    }
    this.pause = { atMs: pausedAtMs, answers: holdable, bargeIns: 1 }
    for (const answer of holdable) answer.hold()
  }

  /** The user's speech was noise: the held answers play on. */
  private resumeHeld() {
    const pause = this.pause
    if (!pause) return
    this.pause = undefined
    clearTimeout(pause.timer)
    for (let i = 0; i < pause.bargeIns; i++) this.output.send('Resume')
    this.clock.resumed(pause.atMs, performance.now())
    for (const answer of pause.answers) answer.resume(pause.atMs)
  }

  /** The user really interrupted: the held answers are cut where the client paused them. */
  private interruptHeld() {
    const pause = this.pause
    if (!pause) return
    this.pause = undefined
    clearTimeout(pause.timer)
    this.sendInterrupt(pause.bargeIns)
    this.clock.dropped(performance.now(), false) // first, as at a barge-in
    for (const answer of pause.answers) answer.interrupt(pause.atMs)
  }

  answerAudible(answer: Answer): void {
    // The user's words are being answered: what they paused will not resume
    if (this.pause && !this.pause.answers.includes(answer)) this.interruptHeld()
  }

  answerProduced(answer: Answer): void {
    this.settleWaiting(answer)
    // The user's words got no answer, and were not found to be noise: they interrupted.
    if (this.pause && !this.pause.answers.includes(answer) && answer.outcome !== 'spoken') {
      this.interruptHeld()
    }
  }

  answerFinal(answer: Answer): void {
    const index = this.answers.indexOf(answer)
    if (index !== -1) this.answers.splice(index, 1)
    this.settleWaiting(answer)
    // Nothing of it was kept: its user messages are answered with the next turn (unless a newer
    // answer, which sees them too, took over)
    const takenOver = answer !== this.latestAgentAnswer
    if (answer.forUser && !answer.answered && !takenOver) this.unanswered = true
    // Nothing keeps a final answer: its turn keeps how it ended
    if (!takenOver) this.latestAgentAnswer = undefined
    const turn = this.turn?.answer === answer ? this.turn : undefined
    if (turn) {
      turn.answer = undefined
      turn.answered = { wentOut: !answer.restartable, reachedClient: answer.reachedClient }
    }
    if (answer.kind === 'answer' && !answer.discarded) {
      const report = answer.turnReport(turn?.failure)
      if (report) this.output.turn(report)
    }
    this.flushEndCall()
    // Words that came while this answer was heard are answered now that it was
    if (this.transcript.pending && !this.transcript.waiting && !this.speaking) {
      this.onTurnText(true)
    }
  }

  private flushEndCall() {
    if (!this.endCallPending || this.answers.length > 0 || !this.outbox.empty) return
    const wait = this.reportsPlaybackEnd ? 0 : this.clock.surelyPlayedAt - performance.now()
    clearTimeout(this.endCallTimer)
    if (wait > 0) {
      this.endCallTimer = setTimeout(() => this.flushEndCall(), wait)
      return
    }
    this.endCallTimer = undefined
    this.endCallPending = false
    this.endCallSent = true
    this.output.send('EndCall')
  }

  // ---- user turns ----

  private userTurn(): UserTurn {
    return (this.turn ??= { clock: { stopAt: performance.now() } })
  }

  /**
   * The user is not speaking and their turn has text, or is over (`settled`). New words join the
   * turn's user message while nothing of its answer went out or was done (the answer restarts with
   * the whole text); otherwise they wait for the answer to be produced and make a turn of their own.
   */
  onTurnText(settled: boolean): void {
    if (this.destroyed) return
    this.answerTurnText(settled)
    // Its words are in (joined to the message held, or replacing it): the message may go
    this.releaseTurnText()
  }

  /** A user message held past its turn's end for the rest of its words goes. */
  private releaseTurnText() {
    const turnEnd = this.turnTextAwaited
    if (!turnEnd) return
    this.turnTextAwaited = undefined
    turnEnd.confirm()
    this.outbox.flush()
  }

  /** What the turn's words do: its user message, and the answer to it. */
  private answerTurnText(settled: boolean) {
    let turn = this.userTurn()
    if (this.transcript.pending) {
      // An answer that went out stands, even one to an earlier message (muted, or timed out)
      const standing = turn.answer ? !turn.answer.restartable : turn.answered?.wentOut === true
      if (standing && turn.answer) {
        if (settled && !this.turnEnd) turn.answer.open()
        return // answered once this answer was heard
      }
      // Taken first: what follows may end answers, and nothing may take these words twice
      const text = this.transcript.take()
      // Words while a held answer is still being produced: a real interruption (the TTS is needed)
      if (this.current?.producing && this.current.phase === 'held') this.interruptHeld()
      if (standing) turn = this.turn = { clock: turn.clock }
      this.turnWords(turn, text)
    }
    if (this.speaking || this.muted) return
    if (this.endCallSent) return this.output.log('The call is ending: the turn is not answered')
    if (this.turnEnd) {
      // A pause: the words so far are answered, held until the end of the turn is confirmed
      if (!turn.answer && this.unanswered) this.startAnswer('answer', { turn, gated: true })
      return
    }
    if (turn.answer) {
      if (settled) turn.answer.open()
      return
    }
    if (this.unanswered) {
      this.startAnswer('answer', { turn, gated: !settled })
    } else if (settled && !turn.message) {
      // No words: the turn gets no answer (and what it paused resumes: it was noise)
      this.output.send('SkipAnswer')
      this.reportUnanswered(turn)
      this.resumeHeld()
    } else if (settled && turn.answered && !turn.answered.reachedClient) {
      // Its answer settled it (a skip, a tool) but was cut before the client learned of it
      this.output.send('SkipAnswer')
    }
  }

  /** A turn that got no answer (no words, or its transcription failed) is over. */
  private reportUnanswered(turn: UserTurn) {
    const times = { ...turn.clock, endedAt: performance.now() }
    this.output.turn({
      outcome: turn.failure ? 'failed' : 'skipped',
      times,
      metrics: turnMetrics(turn.clock, {}),
      ...(turn.failure && { failure: turn.failure }),
    })
  }

  /** The turn's words: its user message, or added to it (the answer to it is asked again). */
  private turnWords(turn: UserTurn, text: string) {
    turn.clock.transcriptAt ??= performance.now()
    turn.answer?.discard()
    turn.answer = undefined
    turn.answered = undefined
    this.unanswered = true
    if (!turn.message) {
      turn.message = this.addUserMessage(text)
      return
    }
    const joined = this.agent.updateMessage(turn.message, {
      content: `${turn.message.content} ${text}`,
    })
    if (!joined) {
      turn.message = this.addUserMessage(text)
      return
    }
    turn.message = joined
    this.outbox.push({ type: 'cancel-last-user-message' })
    this.outbox.push({ type: 'item', item: joined }, this.turnEnd)
  }

  private addUserMessage(text: string): MicdropConversationMessage | undefined {
    const before = this.agent.conversation.length
    try {
      this.agent.addUserMessage(text)
    } catch (error) {
      this.output.log('Adding the user message threw:', error)
    }
    const added = this.agent.conversation.at(-1)
    return this.agent.conversation.length > before && added?.role === 'user' ? added : undefined
  }

  private closeUtterance(): Utterance | undefined {
    const utterance = this.utterance
    this.utterance = undefined
    utterance?.end()
    return utterance
  }

  // ---- agent, STT and TTS events ----

  /**
   * Hears the events of the call's agent, STT and TTS: as the part's call (`CALL_SINK`, one
   * field, on parts built on core's classes), else (a part that is not, or one another call
   * already hears) with a listener per event. Undone by `destroy()`.
   */
  private listen(): void {
    for (const part of this.parts()) {
      if (CALL_SINK in part && part[CALL_SINK] === undefined) part[CALL_SINK] = this
      else this.forEachListener(part, (event, listener) => part.on(event, listener, this))
    }
  }

  private unlisten(): void {
    for (const part of this.parts()) {
      if (CALL_SINK in part && part[CALL_SINK] === this) part[CALL_SINK] = undefined
      else this.forEachListener(part, (event, listener) => part.off(event, listener, this))
    }
  }

  /** The agent, STT and TTS, each once (one object may be more than one of them). */
  private parts(): Part[] {
    const parts = [this.agent, this.stt, this.tts] as unknown as Part[]
    return parts.filter((part, i) => parts.indexOf(part) === i)
  }

  private forEachListener(part: Part, each: (event: string, listener: CallListener) => void) {
    for (const role of ROLES) {
      if ((this[role] as unknown) !== part) continue
      for (const [event, listener] of CallController.LISTENERS[role]) {
        each(event, listener)
      }
    }
  }

  /** An event of the agent, STT or TTS (this call is their `CALL_SINK`). */
  partEvent(part: object, event: string | symbol, arg: unknown): void {
    if (typeof event !== 'string') return
    for (const role of ROLES) {
      if ((this[role] as unknown) === part)
        CallController.LISTENERS[role].get(event)?.call(this, arg)
    }
  }

  /**
   * The call's handlers of its agent's, STT's and TTS's events: one function per event, shared by
   * every call, called with the call as `this` (an idle call holds no closure per event). Each is
   * wrapped so that what its handler throws is logged (with the event's name) instead of being
   * thrown back into the emitter: a provider's socket handler or stream must never fail because
   * of the call.
   */
  private static readonly LISTENERS: Readonly<Record<Role, ReadonlyMap<string, CallListener>>> = {
    agent: handlers({
      Message: guarded('Message', CallController.prototype.onAgentMessage),
      ToolMessage: guarded('ToolMessage', CallController.prototype.onAgentToolMessage),
      CancelLastUserMessage: guarded(
        'CancelLastUserMessage',
        CallController.prototype.onAgentCancelLastUserMessage
      ),
      SkipAnswer: guarded('SkipAnswer', CallController.prototype.onAgentSkipAnswer),
      EndCall: guarded('EndCall', CallController.prototype.onAgentEndCall),
      ToolCall: guarded('ToolCall', CallController.prototype.onAgentToolCall),
      Failed: guarded('Failed', CallController.prototype.onAgentFailed),
    }),
    stt: handlers({
      Transcript: guarded('Transcript', CallController.prototype.onTranscript),
      TranscriptEnd: guarded('TranscriptEnd', CallController.prototype.onTranscriptEnd),
      Failed: guarded('Failed', CallController.prototype.onSttFailed),
    }),
    tts: handlers({
      Audio: guarded('Audio', CallController.prototype.onTtsAudio),
      Words: guarded('Words', CallController.prototype.onTtsWords),
      AudioEnd: guarded('AudioEnd', CallController.prototype.onTtsAudioEnd),
      Failed: guarded('Failed', CallController.prototype.onTtsFailed),
    }),
  }

  /** The answer the agent is producing, whose events these are. */
  private get answering(): Answer | undefined {
    const answer = this.current
    return answer?.producing && answer.kind !== 'speech' ? answer : undefined
  }

  private onAgentMessage(message: MicdropConversationMessage) {
    if (message.role === 'assistant' && this.answering) return this.answering.saved(message)
    // The user's words at a pause are seen once the turn's end is confirmed
    this.outbox.push(
      { type: 'item', item: message },
      message.role === 'user' ? this.turnEnd : undefined
    )
  }

  private onAgentToolMessage(item: MicdropConversationToolItem) {
    if (this.answering) return this.answering.toolItem(item)
    this.outbox.push({ type: 'item', item })
  }

  private onAgentCancelLastUserMessage() {
    // The agent found the user's words to be noise: what they paused resumes (at a pause, only
    // once the turn is over)
    if (this.turnEnd && this.answering?.phase === 'gated') this.turnEnd.noise = true
    else this.resumeHeld()
    // The turn has no words any more: if the user goes on with a cough, it gets SkipAnswer
    const message = this.turn?.message
    if (message && !this.agent.conversation.includes(message)) this.turn!.message = undefined
    if (this.answering) return this.answering.cancelledUserMessage()
    this.outbox.push({ type: 'cancel-last-user-message' })
  }

  private onAgentSkipAnswer() {
    if (this.answering) return this.answering.agentFrame('SkipAnswer')
    this.output.send('SkipAnswer')
  }

  private onAgentEndCall() {
    const answer = this.answering
    answer?.endsCall()
    // A preemptive answer's goodbye: only if the turn really ended there
    if (this.turnEnd && answer?.phase === 'gated') {
      this.turnEnd.endsCall = true
      return
    }
    this.endCallPending = true
    this.flushEndCall()
  }

  private onAgentToolCall(toolCall: MicdropToolCall) {
    if (this.answering) return this.answering.agentFrame('ToolCall', toolCall)
    this.output.send('ToolCall', toolCall)
  }

  private onAgentFailed(error: unknown) {
    this.output.log('Agent failed:', error)
    this.answering?.failedWith('agent', error)
  }

  private onTranscript(text: string) {
    if (this.destroyed) return
    this.transcript.piece(text)
  }

  private onTranscriptEnd() {
    if (this.destroyed) return
    this.transcript.end()
  }

  private onSttFailed(error: unknown) {
    this.output.log('STT failed:', error)
    if (this.turn) this.turn.failure ??= { part: 'stt', error, at: performance.now() }
    // The failed transcription is the oldest open one: the utterance in progress only if no
    // earlier one is still being transcribed
    const utterance = this.utterance
    if (this.transcript.failed() && utterance && utterance.bytes > 0) utterance.failed = true
  }

  private onTtsAudio(audio: Buffer) {
    this.current?.ttsAudio(audio)
  }

  private onTtsWords(words: TTSWord[]) {
    this.current?.ttsWords(words)
  }

  private onTtsAudioEnd() {
    this.current?.ttsAudioEnd()
  }

  private onTtsFailed(error: unknown) {
    this.output.log('TTS failed:', error)
    this.current?.ttsFailed(error)
  }
}

/**
 * The field of core's `Agent`, `STT` and `TTS` (put on them by core's `eventsGoToCall`) where the
 * call they belong to is told their events before their listeners: a registered symbol, the same
 * one core uses, so that it needs no export.
 */
const CALL_SINK = Symbol.for('openmic.callSink')

/** The call's parts, each heard in its role. */
const ROLES = ['agent', 'stt', 'tts'] as const
type Role = (typeof ROLES)[number]

/** A handler of {@link CallController.LISTENERS}, called with the call as `this`. */
type CallListener = (this: CallController, arg?: unknown) => void

/** What the call needs of its agent, STT and TTS to hear them: core's part, or eventemitter3. */
interface Part {
  [CALL_SINK]?: CallController | undefined
  on(event: string, listener: CallListener, context: CallController): unknown
  off(event: string, listener: CallListener, context: CallController): unknown
}

/** A table of handlers by event name (a Map: no event name may find an Object method). */
function handlers(table: Record<string, CallListener>): ReadonlyMap<string, CallListener> {
  return new Map(Object.entries(table))
}

/** `handler` as a listener whose exception is logged with the event's name, never thrown back. */
function guarded<Arg>(
  event: string,
  handler: (this: CallController, arg: Arg) => void
): CallListener {
  return function (this: CallController, arg?: unknown) {
    try {
      handler.call(this, arg as Arg)
    } catch (error) {
      this.output.log(`Error handling ${event}:`, error)
    }
  }
}

/** The utterance's audio went to the STT: its transcript may still come. */
function transcribing(utterance: Utterance | undefined): boolean {
  return utterance !== undefined && utterance.bytes > 0 && !utterance.failed
}
