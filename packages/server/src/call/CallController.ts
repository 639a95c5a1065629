import { Readable } from 'node:stream'
import type { EventEmitter } from 'eventemitter3'
import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import type { MicdropToolCall, TTSWord } from '@openmic/core'
import { AnswerRun, type AnswerOutcome } from '../answer/AnswerRun.js'
import { turnMetrics, type TurnClock } from '../metrics/turn-metrics.js'
import { HeardAnswers } from './heard-answers.js'
import { HeldAnswer } from './held-answer.js'
import type { AnswerPlayback } from './played-audio.js'
import type { CallControllerOptions } from './types.js'
import { TurnTranscript } from './turn-transcript.js'
import { Utterance } from './Utterance.js'

/** What the agent did within `agent.answer()` (a synchronous agent), before the run existed. */
interface Opening {
  messageSaved: boolean
  skipped: boolean
  /** The answer's playback, made before the agent could save its message (held on it). */
  playback: AnswerPlayback
}

/** What an answer run speaks: an agent's answer (tied to a user turn or not), or a given text. */
type RunKind = 'answer' | 'speech'

interface CurrentRun {
  run: AnswerRun
  kind: RunKind
  /** The answer replies to user messages: if cancelled before it is saved, they are unanswered again. */
  forUser: boolean
  turn?: TurnClock
  /** What the client played of it. */
  playback: AnswerPlayback
  /** Settles the promise of the `speak()` or `answer()` call that started the run, if any. */
  resolve?: () => void
}

/**
 * The turn-taking of one call, without any socket: user utterances to the STT, transcripts to the
 * agent, answers to the TTS, barge-in, and the rule that every user turn ends with an answer or a
 * `SkipAnswer`. The socket side is {@link MicdropServer}.
 */
export class CallController {
  /** Audio frames received outside an utterance (dropped). */
  droppedAudioFrames = 0
  private speaking = false
  private muted = false
  private utterance?: Utterance
  /** The pieces of the user turn's transcript, joined into one message once it is complete. */
  private readonly transcript: TurnTranscript
  /** A user message was added and has not been answered yet. */
  private unanswered = false
  private current?: CurrentRun
  private turn?: TurnClock
  private endCallPending = false
  /** Set while `agent.answer()` runs: a synchronous agent acts before its run exists. */
  private opening?: Opening
  private destroyed = false
  /** Takes the call's listeners off its agent, STT and TTS. */
  private readonly listeners: Array<() => void> = []
  private readonly heard: HeardAnswers
  /** The answer the client paused at the last `StartSpeaking`, until the verdict. */
  private held?: HeldAnswer

  constructor(private readonly options: CallControllerOptions) {
    this.heard = new HeardAnswers(options.agent, options.output, () => this.flushEndCall())
    const { stt } = options
    this.transcript = new TurnTranscript({
      signalsEnd: () => stt.signalsTranscriptEnd,
      graceMs: options.transcriptGraceMs,
      timeoutMs: options.transcriptTimeoutMs,
      onComplete: () => this.onTranscriptComplete(),
      log: options.output.log,
    })
    this.listen()
  }

  /** An answer is being spoken or played, or a user turn is open (speaking, or waiting for its transcript). */
  get busy(): boolean {
    return (
      this.current !== undefined ||
      // The answer's audio was sent but is still playing: its message waits to be released.
      this.heard.holding ||
      this.speaking ||
      this.transcript.waiting ||
      this.transcript.pending
    )
  }

  // ---- client commands ----

  startSpeaking(): void {
    this.closeUtterance()
    if (!this.holdAnswer()) {
      this.cancelRun()
      this.heard.cut()
    }
    this.transcript.userStarted()
    this.turn = undefined
    this.speaking = true
    this.muted = false
    this.utterance = new Utterance(this.options.stt, this.options.output.log)
  }

  /** User audio; returns false when it was dropped (no open utterance). */
  userAudio(audio: Buffer): boolean {
    if (!this.utterance) {
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
    this.speaking = false
    // The client waits for this turn's answer or SkipAnswer, even after a Mute.
    this.muted = false
    const utterance = this.closeUtterance()
    this.held?.startTimer()
    this.turn = { stopAt: performance.now() }
    // Answered once its transcript is complete (with any unanswered message).
    this.transcript.userStopped(transcribing(utterance))
  }

  mute(): void {
    this.speaking = false
    this.muted = true
    const utterance = this.closeUtterance()
    this.turn = undefined
    this.held?.interrupt()
    this.cancelRun()
    this.heard.cut()
    // Its transcript is still added to the conversation, unanswered until the user speaks again.
    this.transcript.userStopped(transcribing(utterance))
  }

  /** The client played the call's assistant audio up to `positionMs` (`Played`). */
  played(positionMs: number, paused: boolean): void {
    this.heard.client.report(positionMs, paused)
  }

  /** The client left: the answer it was playing keeps what it heard. */
  hangUp(): void {
    this.held?.interrupt()
    this.cancelRun(false)
    this.heard.cut()
  }

  // ---- app commands ----

  /** Speaks a text (not added to the conversation), cancelling the current answer. */
  speak(text: string | Readable): Promise<void> {
    this.cancelRun()
    const stream = typeof text === 'string' ? Readable.from([text]) : text
    return this.whenDone(this.startRun(stream, 'speech', false))
  }

  /** Answers the conversation as it is now, cancelling the current answer. */
  answer(): Promise<void> {
    return this.whenDone(this.startAnswer())
  }

  /** Starts answering the conversation as it is now, cancelling the current answer. */
  private startAnswer(): CurrentRun | undefined {
    this.cancelRun()
    const forUser = this.unanswered
    this.unanswered = false
    const turn = this.turn
    this.turn = undefined
    let stream: Readable
    const requestedAt = performance.now()
    // A synchronous agent may save its answer, skip it or end the call within answer() itself.
    const playback = this.heard.begin(true)
    const opening: Opening = (this.opening = { messageSaved: false, skipped: false, playback })
    try {
      stream = this.options.agent.answer()
    } catch (error) {
      this.options.output.log('Agent answer() threw:', error)
      this.opening = undefined
      this.heard.ended(playback, 'failed')
      if (!opening.skipped) this.options.output.send('SkipAnswer')
      this.flushEndCall()
      return undefined
    }
    this.opening = undefined
    return this.startRun(stream, 'answer', forUser, turn, requestedAt, opening)
  }

  /** Cancels the current answer; `SkipAnswer` tells the client no answer is coming. */
  cancel(): void {
    if (!this.current) return
    const unanswered = this.unanswered
    this.cancelRun()
    this.unanswered = unanswered // cancelled on purpose: not to be answered again later
    if (!this.speaking) this.options.output.send('SkipAnswer')
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.transcript.destroy()
    this.closeUtterance()
    this.held?.destroy()
    this.cancelRun(false)
    this.heard.destroy()
    for (const unlisten of this.listeners) unlisten()
    this.listeners.length = 0
  }

  // ---- STT ----

  private onTranscript(text: string) {
    if (this.destroyed) return
    if (text.trim() !== '' && this.turn) this.turn.transcriptAt = performance.now()
    this.transcript.piece(text)
  }

  private onTranscriptEnd() {
    if (this.destroyed) return
    this.transcript.end()
  }

  private onSttFailed(error: unknown) {
    this.options.output.log('STT failed:', error)
    if (this.utterance) this.utterance.failed = true
    this.transcript.failed()
  }

  /**
   * The user turn's transcript is complete: its pieces become one user message, answered now unless
   * the user is speaking again or muted. A late piece restarts an answer nothing of which was sent
   * yet; once it has been heard (or saved), the piece waits for its end: the user never hears part
   * of an answer that is then thrown away.
   */
  private onTranscriptComplete() {
    // Words while the held answer is still being produced: a real interruption (the TTS is needed)
    if (this.transcript.pending && this.held?.run && this.current?.run === this.held.run) {
      this.held.interrupt()
    }
    if (this.transcript.pending && this.current && isHeard(this.current.run)) return
    const text = this.transcript.take()
    if (text !== '') {
      this.unanswered = true
      try {
        this.options.agent.addUserMessage(text)
      } catch (error) {
        this.options.output.log('Adding the user message threw:', error)
      }
    }
    if (this.speaking || this.muted) return
    this.endUserTurn()
  }

  /** Ends a user turn that has no new transcript: answer what is unanswered, else skip. */
  private endUserTurn() {
    if (this.unanswered) {
      this.startAnswer()
    } else {
      // Even while something else is being spoken: this turn itself gets no answer.
      this.turn = undefined
      this.options.output.send('SkipAnswer')
      this.held?.resume() // no words: the utterance was noise
    }
  }

  private closeUtterance(): Utterance | undefined {
    const utterance = this.utterance
    this.utterance = undefined
    utterance?.end()
    return utterance
  }

  // ---- answers ----

  private startRun(
    text: Readable,
    kind: RunKind,
    forUser: boolean,
    turn?: TurnClock,
    requestedAt?: number,
    opening?: Opening
  ): CurrentRun {
    const playback = opening?.playback ?? this.heard.begin(kind === 'answer')
    text.on('data', (chunk: Buffer | string) => (playback.text += chunk.toString()))
    const run = new AnswerRun({
      text,
      requestedAt,
      tts: this.options.tts,
      onAudio: (audio, first) => {
        if (this.held && !this.held.done) {
          if (this.held.run === run) return this.held.hold(audio, first)
          this.held.interrupt() // the user's words are being answered
        }
        playback.sent(audio.length)
        this.options.output.audio(audio, first)
      },
      onDone: this.onRunDone,
    })
    const current: CurrentRun = { run, kind, forUser, turn, playback }
    if (opening) {
      run.messageSaved = opening.messageSaved
      run.skipped = opening.skipped
    }
    this.current = current
    run.start()
    return current
  }

  /** A promise of the run's end (at once if it already ended, or never started). */
  private whenDone(current: CurrentRun | undefined): Promise<void> {
    if (!current || this.current !== current) return Promise.resolve()
    return new Promise((resolve) => {
      current.resolve = resolve
    })
  }

  private readonly onRunDone = (run: AnswerRun, outcome: AnswerOutcome) => {
    const current = this.current
    if (!current || current.run !== run) return
    this.current = undefined
    this.heard.ended(current.playback, outcome)
    // The user's words got no answer, and were not found to be noise: they interrupted.
    if (this.held && !this.held.done && this.held.run !== run) this.held.interrupt()
    const { output, tts, agent } = this.options
    if (outcome !== 'spoken') {
      // The TTS may still hold text of this run: no audio of it may come later.
      tryCall(() => tts.cancel(), output)
      if (outcome === 'failed') tryCall(() => agent.cancel(), output)
    }
    const answered = outcome === 'spoken' && (current.kind === 'speech' || run.messageSaved)
    if (!answered && !run.skipped) output.send('SkipAnswer')
    if (current.turn && run.firstAudioAt !== undefined) {
      output.metrics(turnMetrics(current.turn, run))
    }
    output.answerEnd(outcome)
    current.resolve?.()
    this.flushEndCall()
    // A transcript that completed while this answer was heard.
    if (this.transcript.pending && !this.transcript.waiting && !this.speaking) {
      this.onTranscriptComplete()
    }
  }

  /** Stops the current run: TTS and agent cancelled, nothing of it sent any more. */
  private cancelRun(report = true) {
    const current = this.current
    if (!current) return
    this.current = undefined
    current.run.cancel()
    // An interrupted answer was never saved: its user message is answered with the next turn,
    // even if that turn is only noise.
    if (current.forUser && !current.run.messageSaved) this.unanswered = true
    const { output, tts, agent } = this.options
    tryCall(() => tts.cancel(), output)
    if (current.kind === 'answer') tryCall(() => agent.cancel(), output)
    if (report) output.answerEnd('cancelled')
    current.resolve?.()
    if (report) this.flushEndCall()
  }

  /**
   * At `StartSpeaking`: holds the answer the client paused (`Played` with `paused`), or keeps
   * holding it while the user speaks again. False: cancel it as usual.
   */
  private holdAnswer(): boolean {
    if (this.held && !this.held.done) {
      this.held.stopTimer()
      this.heard.client.takeReport()
      return true
    }
    const pausedAtMs = this.heard.client.pausedAtMs
    if (pausedAtMs === undefined) return false
    if (!this.options.resumeAfterNoise || (!this.current && !this.heard.playing)) {
      // Nothing to resume: the client drops what it paused.
      this.options.output.send('Interrupt')
      return false
    }
    this.heard.client.takeReport()
    const run = this.current?.run
    this.held = new HeldAnswer(
      {
        output: this.options.output,
        heard: this.heard,
        cancelRun: (held) => {
          if (this.current?.run === held) this.cancelRun()
        },
      },
      run,
      this.heard.suspend(),
      pausedAtMs,
      this.options.resumeTimeoutMs
    )
    return true
  }

  private flushEndCall() {
    if (!this.endCallPending || this.current || this.opening || this.heard.holding) return
    this.endCallPending = false
    this.options.output.send('EndCall')
  }

  // ---- agent, STT and TTS events ----

  /**
   * Puts the call's listeners on its agent, STT and TTS. Each handler is bound to this call and
   * wrapped so that what it throws is logged (with the event's name) instead of being thrown back
   * into the emitter: a provider's socket handler or stream must never fail because of the call.
   */
  private listen(): void {
    const { agent, stt, tts } = this.options
    this.on(agent, 'Message', this.onAgentMessage)
    this.on(agent, 'ToolMessage', this.onAgentToolMessage)
    this.on(agent, 'CancelLastUserMessage', this.onAgentCancelLastUserMessage)
    this.on(agent, 'SkipAnswer', this.onAgentSkipAnswer)
    this.on(agent, 'EndCall', this.onAgentEndCall)
    this.on(agent, 'ToolCall', this.onAgentToolCall)
    this.on(agent, 'Failed', this.onAgentFailed)
    this.on(stt, 'Transcript', this.onTranscript)
    this.on(stt, 'TranscriptEnd', this.onTranscriptEnd)
    this.on(stt, 'Failed', this.onSttFailed)
    this.on(tts, 'Audio', this.onTtsAudio)
    this.on(tts, 'Words', this.onTtsWords)
    this.on(tts, 'AudioEnd', this.onTtsAudioEnd)
    this.on(tts, 'Failed', this.onTtsFailed)
  }

  /** Listens to `emitter`'s `event` with `handler` called on this call; undone by `destroy()`. */
  private on<
    Events extends EventEmitter.ValidEventTypes,
    Event extends EventEmitter.EventNames<Events>,
  >(
    emitter: EventEmitter<Events>,
    event: Event,
    handler: EventEmitter.EventListener<Events, Event>
  ): void {
    const listener = ((...args: unknown[]) => {
      try {
        ;(handler as (...args: unknown[]) => void).apply(this, args)
      } catch (error) {
        this.options.output.log(`Error handling ${String(event)}:`, error)
      }
    }) as EventEmitter.EventListener<Events, Event>
    emitter.on(event, listener)
    this.listeners.push(() => emitter.off(event, listener))
  }

  private onAgentMessage(message: MicdropConversationMessage) {
    if (message.role === 'assistant') {
      const { opening, current } = this
      if (opening) opening.messageSaved = true
      else if (current?.kind === 'answer') current.run.messageSaved = true
      // Held until the answer's audio has played, or cut to what was heard
      const playback = opening ? opening.playback : current?.playback
      if ((opening || current?.kind === 'answer') && this.heard.hold(playback, message)) return
    }
    if (this.held?.queue(message)) return
    this.options.output.send('Message', message)
  }

  private onAgentToolMessage(item: MicdropConversationItem) {
    const playback = this.opening?.playback ?? this.current?.playback
    if (this.heard.holdAfter(playback, item)) return
    if (this.held?.queue(item)) return
    this.options.output.send('Message', item)
  }

  private onAgentCancelLastUserMessage() {
    this.held?.resume() // the agent found the user's words to be noise (sends them first)
    this.options.output.send('CancelLastUserMessage')
  }

  private onAgentSkipAnswer() {
    if (this.opening) this.opening.skipped = true
    else if (this.current) this.current.run.skipped = true
    this.options.output.send('SkipAnswer')
  }

  private onAgentEndCall() {
    this.endCallPending = true
    this.flushEndCall()
  }

  private onAgentToolCall(toolCall: MicdropToolCall) {
    this.options.output.send('ToolCall', toolCall)
  }

  private onAgentFailed(error: unknown) {
    this.options.output.log('Agent failed:', error)
  }

  private onTtsAudio(audio: Buffer) {
    this.current?.run.audio(audio)
  }

  private onTtsWords(words: TTSWord[]) {
    this.current?.playback.words.push(...words)
  }

  private onTtsAudioEnd() {
    this.current?.run.audioEnd()
  }

  private onTtsFailed(error: unknown) {
    this.options.output.log('TTS failed:', error)
    this.current?.run.ttsFailed(error)
  }
}

/** Some of the run reached the client: its audio, or its assistant message. */
function isHeard(run: AnswerRun): boolean {
  return run.firstAudioAt !== undefined || run.messageSaved
}

/** The utterance's audio went to the STT: its transcript may still come. */
function transcribing(utterance: Utterance | undefined): boolean {
  return utterance !== undefined && utterance.bytes > 0 && !utterance.failed
}

function tryCall(action: () => void, output: { log(...message: unknown[]): void }) {
  try {
    action()
  } catch (error) {
    output.log('Cancel threw:', error)
  }
}
