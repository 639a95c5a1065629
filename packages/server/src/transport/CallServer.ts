import type { Readable } from 'node:stream'
import { EventEmitter } from 'eventemitter3'
import type { Agent, STT, TTS } from '@openmic/core'
import {
  MicdropCloseCodes,
  type MicdropCallSummary,
  type MicdropClientHello,
  type MicdropPlayed,
  type MicdropServerCommand,
  type MicdropTurnMetrics,
} from '@openmic/core/protocol'
import { CallController } from '../call/CallController.js'
import type { AnswerOutcome, CallOutput, ConversationChange } from '../call/types.js'
import type { TurnTimes } from '../metrics/turn-metrics.js'
import type { TurnReport } from '../metrics/turn-report.js'
import { drainCall } from '../drain/drainCall.js'
import { CallStore } from '../store/CallStore.js'
import { defaultConversationStore } from '../store/MemoryConversationStore.js'
import type { MicdropServerEvents, MicdropServerOptions } from '../server/types.js'
import { callParts } from './call-parts.js'

const DEFAULT_TRANSCRIPT_TIMEOUT_MS = 10_000
const DEFAULT_RESUME_TIMEOUT_MS = 3000
const DEFAULT_STORE_TIMEOUT_MS = 1000
const DEFAULT_DRAIN_DEADLINE_MS = 30_000
/**
 * Three times the 100 ms gap between the final pieces of a streaming STT that the server must join,
 * yet small next to a model's first token; only STTs that cannot signal `TranscriptEnd` pay it.
 */
const DEFAULT_TRANSCRIPT_GRACE_MS = 300
/**
 * Frames about playback and turns, not the conversation: like audio they go at once, never behind
 * a store write, so that a slow store neither holds the voice nor lets it out after a barge-in,
 * the server's reckoning of the client's playback counts from when the audio really left, and a
 * turn's `SkipAnswer` reaches the client in that turn.
 */
const PLAYBACK_FRAMES: ReadonlySet<MicdropServerCommand> = new Set([
  'SkipAnswer',
  'Caption',
  'Resume',
  'Interrupt',
  'Hello',
])

/** What a transport tells the call: the user's side of the Micdrop protocol, already parsed. */
export interface CallInput {
  /** The user started speaking (`StartSpeaking`): a barge-in if an answer plays. */
  startSpeaking(): void
  /** User audio (PCM16 16 kHz mono) of the open utterance; false if no utterance is open. */
  userAudio(audio: Buffer): boolean
  /** The user stopped speaking (`StopSpeaking`): the utterance is transcribed and answered. */
  stopSpeaking(): void
  /**
   * The user paused inside the utterance (`PauseSpeaking`, a VAD's `SpeechPause`): with
   * `preemptive`, the utterance ends here and its words are answered, the answer held until
   * `stopSpeaking`. Returns true then; false if the utterance goes on (audio still belongs to
   * it, and `resumeSpeaking` changes nothing).
   */
  pauseSpeaking(): boolean
  /**
   * After a `pauseSpeaking` that ended the utterance, the user went on (`ResumeSpeaking`): the
   * held answer is dropped and a new utterance of the same turn opens.
   */
  resumeSpeaking(): void
  /** The user muted the microphone (`Mute`). */
  mute(): void
  /** How far the assistant's audio was played (`Played`), in ms of all the audio sent. */
  played(played: MicdropPlayed): void
  /** The transport knows what the other side does (after its first frames): held turns may go on. */
  clientKnown(): void
}

/**
 * One voice call on the server, whatever carries it: the agent, STT and TTS (or a realtime
 * model's session, which serves as all three), the turn rules, the
 * conversation store, the events and the call's end. A transport ({@link MicdropServer} on a
 * WebSocket, `TwilioServer` on a phone line) extends it: it feeds {@link CallServer.input} with
 * what the other side does and implements how frames and audio go out.
 *
 * Not needed by applications, which use a transport; exported for transport packages.
 */
export abstract class CallServer<
  Events extends MicdropServerEvents = MicdropServerEvents,
> extends EventEmitter<Events> {
  readonly agent: Agent
  readonly stt: STT
  readonly tts: TTS
  /** The user's side of the call, for the transport to feed. */
  protected readonly input: CallInput
  private readonly call: CallController
  private readonly startedAt = Date.now()
  private ended = false
  /** The call was opened: first message, SkipAnswer, or the app's own speak()/answer(). */
  private opened = false
  /** The call is ending: only the final messages of `hangUp()` may still be emitted. */
  private sendingFinal = false
  /** Set with `store` and `conversationId`: loads the history, stores every item sent. */
  private readonly store?: CallStore
  private draining?: Promise<void>
  /**
   * The barge-ins (`StartSpeaking`, `Mute`) that a client which said `Hello` is yet to see settled,
   * in order: for each one over an answer, how much of it the user had heard and when they spoke
   * (see `BargeIn`).
   */
  private unsettledBargeIns?: Array<{ heardMs: number; at: number } | undefined>

  constructor(private readonly callOptions: MicdropServerOptions) {
    super()
    const options = callOptions
    const parts = callParts(options)
    this.agent = parts.agent
    this.stt = parts.stt
    this.tts = parts.tts
    if (options.logger) {
      this.agent.logger ??= options.logger
      this.stt.logger ??= options.logger
      this.tts.logger ??= options.logger
      if (options.realtime) options.realtime.model.logger ??= options.logger
    }
    if (options.conversationId !== undefined) {
      this.store = new CallStore({
        store: options.store ?? defaultConversationStore(),
        conversationId: options.conversationId,
        timeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
        onError: (error, operation) => {
          this.log(`Store ${operation} failed:`, error)
          this.safeEmit('StoreError', error, operation)
        },
        onCall: (call) => this.safeEmit('StoreCall', call),
        log: (...message) => this.log(...message),
      })
    }
    this.call = new CallController({
      agent: this.agent,
      stt: this.stt,
      tts: this.tts,
      transcriptTimeoutMs: options.transcriptTimeoutMs ?? DEFAULT_TRANSCRIPT_TIMEOUT_MS,
      resumeAfterNoise: options.resumeAfterNoise ?? true,
      resumeTimeoutMs: options.resumeTimeoutMs ?? DEFAULT_RESUME_TIMEOUT_MS,
      transcriptGraceMs: options.transcriptGraceMs ?? DEFAULT_TRANSCRIPT_GRACE_MS,
      preemptive: options.preemptive ?? false,
      output: new CallServer.Output(this),
    })
    this.input = new CallServer.Input(this)
  }

  /**
   * What the call does to the outside world: this server's frames and events. A class rather than
   * an object of arrow functions so that an idle call holds one small object, not a closure per
   * function (written inside `CallServer` to reach its private members).
   */
  private static readonly Output = class<E extends MicdropServerEvents> implements CallOutput {
    constructor(private readonly server: CallServer<E>) {}
    send(name: MicdropServerCommand, payload?: unknown) {
      this.server.send(name, payload)
    }
    audio(audio: Buffer, first: boolean) {
      this.server.audio(audio, first)
    }
    change(change: ConversationChange, how: { frame: boolean; record: boolean }) {
      this.server.change(change, how)
    }
    metrics(metrics: MicdropTurnMetrics, times: TurnTimes) {
      if (this.server.callOptions.sendMetrics) this.server.send('Metrics', metrics)
      this.server.safeEmit('Metrics', metrics, times)
    }
    turn(report: TurnReport) {
      this.server.safeEmit('Turn', report)
    }
    answerEnd(outcome: AnswerOutcome) {
      this.server.safeEmit('AnswerEnd', outcome)
    }
    log(...message: unknown[]) {
      this.server.log(...message)
    }
  }

  /** The user's side, as the transport feeds it: barge-ins are tracked before the call sees them. */
  private static readonly Input = class<E extends MicdropServerEvents> implements CallInput {
    constructor(private readonly server: CallServer<E>) {}
    startSpeaking() {
      this.server.trackBargeIn()
      this.server.call.startSpeaking()
    }
    userAudio(audio: Buffer) {
      return this.server.call.userAudio(audio)
    }
    stopSpeaking() {
      this.server.call.stopSpeaking()
    }
    pauseSpeaking() {
      return this.server.call.pauseSpeaking()
    }
    resumeSpeaking() {
      this.server.call.resumeSpeaking()
    }
    mute() {
      this.server.trackBargeIn()
      this.server.call.mute()
    }
    played(played: MicdropPlayed) {
      this.server.call.played(played)
    }
    clientKnown() {
      this.server.call.clientKnown()
    }
  }

  /** Speaks a text without adding it to the conversation; resolves when spoken or cancelled. */
  speak(text: string | Readable): Promise<void> {
    if (this.ended) return Promise.resolve()
    this.opened = true
    return this.call.speak(text)
  }

  /** Answers the conversation as it is now (cancels the current answer). */
  answer(): Promise<void> {
    if (this.ended) return Promise.resolve()
    this.opened = true
    return this.call.answer()
  }

  /** Cancels the current answer: TTS and agent stopped, `SkipAnswer` sent. */
  cancel(): void {
    this.call.cancel()
  }

  /** Closes the call (1000 by default); `End` follows. */
  close(code: number = MicdropCloseCodes.Normal, reason?: string): void {
    this.flushTransport()
    this.closeTransport(code, reason)
    this.end(code)
  }

  /**
   * Ends the call for a server restart: waits until no answer is being spoken and no user turn is
   * open (or `deadlineMs` passed), lets the store catch up, then closes with 1012 so that the
   * client reconnects (to another instance) and resumes the conversation.
   */
  drain(deadlineMs: number = DEFAULT_DRAIN_DEADLINE_MS): Promise<void> {
    this.draining ??= drainCall(this, this.call, this.store, Date.now() + deadlineMs)
    return this.draining
  }

  /** The call ended (its transport closed). */
  get isEnded(): boolean {
    return this.ended
  }

  /** Audio frames received outside an utterance and dropped. */
  get droppedAudioFrames(): number {
    return this.call.droppedAudioFrames
  }

  /** How the transport sends a text frame (`Message`, `EndCall`, `Interrupt`...). */
  protected abstract sendFrame(name: MicdropServerCommand, payload?: unknown): void

  /** How the transport sends assistant audio (PCM16 16 kHz); `first`: an answer's first chunk. */
  protected abstract sendAudio(audio: Buffer, first: boolean): void

  /** Closes the transport itself (the socket); the call's end follows. */
  protected abstract closeTransport(code: number, reason?: string): void

  /** Writes out what the transport gathered (before a close). */
  protected flushTransport(): void {}

  /**
   * Opens the call on the next microtask (so that listeners attached right after `new` see
   * everything): loads the history with a store, then the first message or `SkipAnswer`.
   */
  protected open(): void {
    queueMicrotask(() => {
      if (this.ended) return
      try {
        if (this.store) this.store.open(this.agent, (resume) => this.resumeCall(resume))
        else this.openCall()
      } catch (error) {
        this.log('Opening the call failed:', error)
        this.close(MicdropCloseCodes.InternalError, 'Internal error')
      }
    })
  }

  /**
   * Holds what the other side sends while the history loads: true if `handle` was kept, to be
   * called once the history is in, in order.
   */
  protected holdWhileLoading(handle: () => void): boolean {
    return this.store?.holdIncoming(handle) ?? false
  }

  /** The history is loading (with a store): what the other side sends now is to be held. */
  protected get loadingHistory(): boolean {
    return this.store?.loading ?? false
  }

  /** What the other side does, as an openmic client's `Hello` says (then call `input.clientKnown()`). */
  protected clientSaidHello(hello: MicdropClientHello): void {
    this.call.captions = hello.captions === true
    this.call.reportsPlaybackEnd = hello.reportsPlaybackEnd === true
    this.call.saidHello = true
  }

  /** Whether the call answers at the user's pauses (the `preemptive` option). */
  protected get preemptive(): boolean {
    return this.callOptions.preemptive ?? false
  }

  /** Whether answers may pause over the user's speech (the `resumeAfterNoise` option). */
  protected get resumesAfterNoise(): boolean {
    return this.callOptions.resumeAfterNoise ?? true
  }

  /**
   * The transport closed (with `code` if known): the answer playing keeps what was heard, the
   * agent, STT and TTS are destroyed, the store ends, `End` is emitted. Returns false if the call
   * had ended already.
   */
  protected end(code?: number): boolean {
    if (this.ended) return false
    this.ended = true
    // The answer playing keeps what the user heard of it: apps that persist on `Message` get it.
    this.sendingFinal = true
    this.call.hangUp()
    this.sendingFinal = false
    this.call.destroy()
    this.store?.end(code === MicdropCloseCodes.Normal)
    this.flushTransport()
    for (const part of [this.agent, this.stt, this.tts]) {
      try {
        part.destroy()
      } catch (error) {
        this.log('destroy() threw:', error)
      }
    }
    const summary: MicdropCallSummary = {
      conversation: this.agent.conversation,
      duration: Math.round((Date.now() - this.startedAt) / 10) / 100,
    }
    this.log('Call ended')
    this.safeEmit('End', summary, code)
    try {
      this.callOptions.onEnd?.(summary)
    } catch (error) {
      this.log('onEnd threw:', error)
    }
    this.removeAllListeners()
    return true
  }

  /** Emits an event; a listener that throws is logged, never breaks the call. */
  protected safeEmit<E extends keyof MicdropServerEvents>(
    event: E,
    ...args: MicdropServerEvents[E]
  ): void {
    try {
      ;(this.emit as (event: E, ...args: unknown[]) => boolean)(event, ...args)
    } catch (error) {
      this.log(`A ${event} listener threw:`, error)
    }
  }

  protected log(...message: unknown[]): void {
    this.callOptions.logger?.log(...message)
  }

  private openCall() {
    const { firstMessage, generateFirstMessage } = this.callOptions
    if (this.opened) return // the app already called speak() or answer()
    this.opened = true
    if (firstMessage) {
      this.call.greet(firstMessage)
    } else if (generateFirstMessage) {
      void this.call.answer()
    } else {
      this.send('SkipAnswer')
    }
  }

  /** After the store's history was loaded: the resume rules, or a new call. */
  private resumeCall(resume: 'new' | 'answer' | 'silent') {
    if (this.ended) return
    try {
      if (resume === 'new') return this.openCall()
      if (this.opened) return
      this.opened = true
      if (resume === 'answer') void this.call.answer()
      else this.send('SkipAnswer')
    } catch (error) {
      this.log('Resuming the call failed:', error)
      this.close(MicdropCloseCodes.InternalError, 'Internal error')
    }
  }

  private send(name: MicdropServerCommand, payload?: unknown) {
    if (this.ended && !this.sendingFinal) return
    if (PLAYBACK_FRAMES.has(name)) this.sendFrame(name, payload)
    else this.deliver(name, payload)
    if (name === 'Interrupt' || name === 'Resume') this.settleBargeIn(name)
  }

  /**
   * A conversation change: recorded once final (the store, then the `Message` event), shown to the
   * other side with a frame. A frame waits for its record to be stored (when there is a store), so
   * that every change the other side sees is kept; events are not held: they follow the call as
   * it happens.
   */
  private change(change: ConversationChange, how: { frame: boolean; record: boolean }) {
    if (this.ended && !this.sendingFinal) return
    const name = change.type === 'item' ? 'Message' : 'CancelLastUserMessage'
    const payload = change.type === 'item' ? change.item : undefined
    if (how.record) this.store?.record(name, payload)
    if (how.frame) this.deliver(name, payload)
    if (!how.record) return
    if (change.type === 'item') this.safeEmit('Message', change.item)
    else this.safeEmit('CancelLastUserMessage')
  }

  /**
   * The user spoke or muted: over an answer, a barge-in that `BargeIn` reports once settled. A
   * client that said `Hello` sees each settled by one `Interrupt` or `Resume`, possibly from
   * within this call (so it is queued first); any other has its answer cut at once. Answers
   * already played out by now end heard first: speaking right at an answer's end is no barge-in.
   */
  private trackBargeIn() {
    this.call.endPlayedOut()
    // Before the call reads (and takes) the client's report: what the barge-in keeps
    const bargeIn = this.call.answerInProgress
      ? { heardMs: this.call.heardNow(), at: performance.now() }
      : undefined
    if (this.call.saidHello) (this.unsettledBargeIns ??= []).push(bargeIn)
    else if (bargeIn) this.safeEmit('BargeIn', 'interrupted', bargeIn.heardMs, bargeIn.at)
  }

  /** One barge-in was settled, in the order they came (see `settlesBargeIns`). */
  private settleBargeIn(frame: 'Interrupt' | 'Resume') {
    const bargeIn = this.unsettledBargeIns?.shift()
    if (!bargeIn) return
    const verdict = frame === 'Interrupt' ? 'interrupted' : 'resumed'
    this.safeEmit('BargeIn', verdict, bargeIn.heardMs, bargeIn.at)
  }

  /** Audio goes at once, never behind a store write (see `PLAYBACK_FRAMES`). */
  private audio(audio: Buffer, first: boolean) {
    if (this.ended) return
    this.sendAudio(audio, first)
    this.safeEmit('AssistantAudio', audio)
  }

  /** Sends now, or after the store writes that frames wait for. */
  private deliver(name: MicdropServerCommand, payload: unknown) {
    if (this.store) this.store.gate.deliver(() => this.sendFrame(name, payload))
    else this.sendFrame(name, payload)
  }
}
