import { Readable } from 'node:stream'
import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import type { MicdropToolCall } from '@openmic/core'
import { AnswerRun, type AnswerOutcome } from '../answer/AnswerRun.js'
import { turnMetrics, type TurnClock } from '../metrics/turn-metrics.js'
import type { CallControllerOptions } from './types.js'
import { Utterance } from './Utterance.js'

/** What an answer run speaks: an agent's answer (tied to a user turn or not), or a given text. */
type RunKind = 'answer' | 'speech'

interface CurrentRun {
  run: AnswerRun
  kind: RunKind
  turn?: TurnClock
  resolve: () => void
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
  /** A user turn ended (`StopSpeaking`) and waits for its transcript. */
  private awaitingTranscript = false
  /** A user message was added and has not been answered yet. */
  private unanswered = false
  private current?: CurrentRun
  private turn?: TurnClock
  private transcriptTimer?: NodeJS.Timeout
  private endCallPending = false
  private destroyed = false
  private readonly unsubscribe: Array<() => void> = []

  constructor(private readonly options: CallControllerOptions) {
    this.subscribe()
  }

  // ---- client commands ----

  startSpeaking(): void {
    this.closeUtterance()
    this.cancelRun()
    this.stopWaitingForTranscript()
    this.turn = undefined
    this.speaking = true
    this.muted = false
    const utterance = new Utterance((audio) => {
      try {
        this.options.stt.transcribe(audio)
      } catch (error) {
        this.options.output.log('STT transcribe() threw:', error)
        utterance.failed = true
      }
    })
    this.utterance = utterance
  }

  /** User audio; returns false when it was dropped (no open utterance). */
  userAudio(audio: Buffer): boolean {
    if (!this.utterance) {
      this.droppedAudioFrames++
      return false
    }
    this.utterance.write(audio)
    return true
  }

  stopSpeaking(): void {
    this.speaking = false
    const utterance = this.closeUtterance()
    this.turn = { stopAt: performance.now() }
    if (utterance && utterance.bytes > 0 && !utterance.failed && !this.unanswered) {
      this.awaitTranscript()
    } else {
      this.endUserTurn()
    }
  }

  mute(): void {
    this.speaking = false
    this.muted = true
    this.closeUtterance()
    this.stopWaitingForTranscript()
    this.turn = undefined
    this.cancelRun()
  }

  // ---- app commands ----

  /** Speaks a text (not added to the conversation), cancelling the current answer. */
  speak(text: string | Readable): Promise<void> {
    this.cancelRun()
    const stream = typeof text === 'string' ? Readable.from([text]) : text
    return this.startRun(stream, 'speech')
  }

  /** Answers the conversation as it is now, cancelling the current answer. */
  answer(): Promise<void> {
    this.cancelRun()
    this.unanswered = false
    this.stopWaitingForTranscript()
    const turn = this.turn
    this.turn = undefined
    let stream: Readable
    try {
      stream = this.options.agent.answer()
    } catch (error) {
      this.options.output.log('Agent answer() threw:', error)
      this.options.output.send('SkipAnswer')
      return Promise.resolve()
    }
    return this.startRun(stream, 'answer', turn)
  }

  /** Cancels the current answer; `SkipAnswer` tells the client no answer is coming. */
  cancel(): void {
    if (!this.current) return
    this.cancelRun()
    if (!this.speaking) this.options.output.send('SkipAnswer')
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.stopWaitingForTranscript()
    this.closeUtterance()
    this.cancelRun(false)
    for (const off of this.unsubscribe) off()
    this.unsubscribe.length = 0
  }

  // ---- STT ----

  private onTranscript(text: string) {
    if (this.destroyed) return
    if (text.trim() === '') {
      if (this.awaitingTranscript) this.endUserTurn()
      return
    }
    if (this.turn) this.turn.transcriptAt = performance.now()
    this.unanswered = true
    try {
      this.options.agent.addUserMessage(text)
    } catch (error) {
      this.options.output.log('Adding the user message threw:', error)
    }
    if (this.speaking || this.muted) return
    void this.answer()
  }

  private onSttFailed(error: unknown) {
    this.options.output.log('STT failed:', error)
    if (this.utterance) this.utterance.failed = true
    if (this.awaitingTranscript) this.endUserTurn()
  }

  private awaitTranscript() {
    this.awaitingTranscript = true
    this.transcriptTimer = setTimeout(() => {
      this.options.output.log('No transcript came in time')
      this.endUserTurn()
    }, this.options.transcriptTimeoutMs)
  }

  private stopWaitingForTranscript() {
    this.awaitingTranscript = false
    clearTimeout(this.transcriptTimer)
    this.transcriptTimer = undefined
  }

  /** Ends a user turn that has no new transcript: answer what is unanswered, else skip. */
  private endUserTurn() {
    this.stopWaitingForTranscript()
    if (this.unanswered) {
      void this.answer()
    } else if (!this.current) {
      this.turn = undefined
      this.options.output.send('SkipAnswer')
    }
  }

  private closeUtterance(): Utterance | undefined {
    const utterance = this.utterance
    this.utterance = undefined
    utterance?.end()
    return utterance
  }

  // ---- answers ----

  private startRun(text: Readable, kind: RunKind, turn?: TurnClock): Promise<void> {
    return new Promise((resolve) => {
      const run: AnswerRun = new AnswerRun({
        text,
        tts: this.options.tts,
        onAudio: (audio) => this.options.output.audio(audio),
        onDone: (outcome) => this.onRunDone(run, outcome),
      })
      this.current = { run, kind, turn, resolve }
      run.start()
    })
  }

  private onRunDone(run: AnswerRun, outcome: AnswerOutcome) {
    const current = this.current
    if (!current || current.run !== run) return
    this.current = undefined
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
    current.resolve()
    this.flushEndCall()
  }

  /** Stops the current run: TTS and agent cancelled, nothing of it sent any more. */
  private cancelRun(report = true) {
    const current = this.current
    if (!current) return
    this.current = undefined
    current.run.cancel()
    const { output, tts, agent } = this.options
    tryCall(() => tts.cancel(), output)
    if (current.kind === 'answer') tryCall(() => agent.cancel(), output)
    if (report) output.answerEnd('cancelled')
    current.resolve()
    if (report) this.flushEndCall()
  }

  private flushEndCall() {
    if (!this.endCallPending || this.current) return
    this.endCallPending = false
    this.options.output.send('EndCall')
  }

  // ---- agent, STT and TTS events ----

  private subscribe() {
    const { agent, stt, tts, output } = this.options
    const on = <E extends { on: Function; off: Function }>(
      emitter: E,
      event: string,
      listener: (...args: any[]) => void
    ) => {
      const guarded = (...args: any[]) => {
        try {
          listener(...args)
        } catch (error) {
          output.log(`Error handling ${event}:`, error)
        }
      }
      emitter.on(event, guarded)
      this.unsubscribe.push(() => emitter.off(event, guarded))
    }
    on(agent, 'Message', (message: MicdropConversationMessage) => {
      if (message.role === 'assistant' && this.current?.kind === 'answer') {
        this.current.run.messageSaved = true
      }
      output.send('Message', message)
    })
    on(agent, 'ToolMessage', (item: MicdropConversationItem) => output.send('Message', item))
    on(agent, 'CancelLastUserMessage', () => output.send('CancelLastUserMessage'))
    on(agent, 'SkipAnswer', () => {
      if (this.current) this.current.run.skipped = true
      output.send('SkipAnswer')
    })
    on(agent, 'EndCall', () => {
      this.endCallPending = true
      this.flushEndCall()
    })
    on(agent, 'ToolCall', (toolCall: MicdropToolCall) => output.send('ToolCall', toolCall))
    on(agent, 'Failed', (error: unknown) => output.log('Agent failed:', error))
    on(stt, 'Transcript', (text: string) => this.onTranscript(text))
    on(stt, 'Failed', (error: unknown) => this.onSttFailed(error))
    on(tts, 'Audio', (audio: Buffer) => this.current?.run.audio(audio))
    on(tts, 'AudioEnd', () => this.current?.run.audioEnd())
    on(tts, 'Failed', (error: unknown) => {
      output.log('TTS failed:', error)
      this.current?.run.ttsFailed(error)
    })
  }
}

function tryCall(action: () => void, output: { log(...message: unknown[]): void }) {
  try {
    action()
  } catch (error) {
    output.log('Cancel threw:', error)
  }
}
