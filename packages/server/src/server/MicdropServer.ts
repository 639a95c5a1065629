import type { Readable } from 'node:stream'
import { EventEmitter } from 'eventemitter3'
import type { Agent, STT, TTS } from '@openmic/core'
import {
  MicdropClientCommands,
  MicdropCloseCodes,
  encodeServerMessage,
  parseClientExtension,
  type MicdropCallSummary,
  type MicdropClientHello,
  type MicdropServerCommand,
} from '@openmic/core/protocol'
import { WebSocket, type RawData } from 'ws'
import { CallController } from '../call/CallController.js'
import type { ConversationChange } from '../call/types.js'
import { drainCall } from '../drain/drainCall.js'
import { CallStore } from '../store/CallStore.js'
import { defaultConversationStore } from '../store/MemoryConversationStore.js'
import { readParamsOf } from '../params/held-frames.js'
import { FrameWriter } from './frame-writer.js'
import { frameBuffer, frameSize } from './frames.js'
import type { MicdropServerEvents, MicdropServerOptions } from './types.js'

const DEFAULT_MAX_FRAME_BYTES = 65536
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

/**
 * One voice call over a WebSocket (`ws`): user audio to the STT, transcripts to the agent, answers
 * through the TTS back to the client, with barge-in, first message and end of call. Implements the
 * Micdrop protocol with openmic's extensions (docs/protocol.md in the repository); text and binary
 * frames are told apart by their opcode.
 *
 * When the socket closes, the agent, STT and TTS are destroyed and `End` is emitted.
 *
 * @example
 * wss.on('connection', (socket) => {
 *   new MicdropServer(socket, {
 *     agent: new MockAgent({ systemPrompt: 'You are helpful.' }),
 *     stt: new MockSTT(),
 *     tts: new MockTTS(),
 *     firstMessage: 'Hello!',
 *   })
 * })
 */
export class MicdropServer extends EventEmitter<MicdropServerEvents> {
  readonly agent: Agent
  readonly stt: STT
  readonly tts: TTS
  private readonly call: CallController
  private readonly writer: FrameWriter
  private readonly startedAt = Date.now()
  private ended = false
  /** The call was opened: first message, SkipAnswer, or the app's own speak()/answer(). */
  private opened = false
  /** The call is ending: only the final messages of `hangUp()` may still be emitted. */
  private sendingFinal = false
  /** Set with `store` and `conversationId`: loads the history, stores every item sent. */
  private readonly store?: CallStore
  private draining?: Promise<void>

  constructor(
    readonly socket: WebSocket,
    private readonly options: MicdropServerOptions
  ) {
    super()
    this.agent = options.agent
    this.stt = options.stt
    this.tts = options.tts
    if (options.logger) {
      this.agent.logger ??= options.logger
      this.stt.logger ??= options.logger
      this.tts.logger ??= options.logger
    }
    this.writer = new FrameWriter(socket)
    if (options.conversationId !== undefined) {
      this.store = new CallStore({
        store: options.store ?? defaultConversationStore(),
        conversationId: options.conversationId,
        timeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
        onError: (error, operation) => {
          this.log(`Store ${operation} failed:`, error)
          this.safeEmit('StoreError', error, operation)
        },
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
      output: {
        send: (name, payload) => this.send(name, payload),
        audio: (audio, first) => this.sendAudio(audio, first),
        change: (change, how) => this.sendChange(change, how),
        metrics: (metrics) => {
          if (this.options.sendMetrics) this.send('Metrics', metrics)
          this.safeEmit('Metrics', metrics)
        },
        answerEnd: (outcome) => this.safeEmit('AnswerEnd', outcome),
        log: (...message) => this.log(...message),
      },
    })
    socket.on('message', this.onMessage)
    socket.on('close', this.onClose)
    socket.on('error', this.onError)
    if (socket.readyState !== WebSocket.OPEN) {
      queueMicrotask(() => this.onClose())
      return
    }
    // The client spoke first (its params): once the frames behind them are handled (an openmic
    // client's `Hello`, given back on the next turn of the loop), it is known which client it is.
    if (readParamsOf(socket)) setImmediate(() => this.call.clientKnown())
    // Started on the next microtask, so that listeners attached right after `new` see everything.
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
    this.writer.flush()
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(code, reason)
    this.onClose(code)
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

  /** The call ended (its socket closed). */
  get isEnded(): boolean {
    return this.ended
  }

  /** Audio frames received outside an utterance and dropped. */
  get droppedAudioFrames(): number {
    return this.call.droppedAudioFrames
  }

  private openCall() {
    const { firstMessage, generateFirstMessage } = this.options
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

  private readonly onMessage = (data: RawData, isBinary: boolean) => {
    if (this.ended) return
    try {
      if (frameSize(data) > (this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES)) {
        this.log(`Frame of ${frameSize(data)} bytes is over the limit: closing`)
        this.close(MicdropCloseCodes.MessageTooBig, 'Frame too large')
        return
      }
      const text = isBinary ? undefined : frameBuffer(data).toString()
      // The client's Hello changes nothing in the conversation: it counts at once, history or not
      const extension = text === undefined ? undefined : parseClientExtension(text)
      if (extension?.type === 'Hello') return this.onHello(extension.hello)
      // Frames that come in while the history loads are handled after it, in order.
      if (this.store?.holdIncoming(() => this.onMessage(data, isBinary))) return
      if (text === undefined) this.onAudio(frameBuffer(data))
      else if (extension) this.call.played(extension.played)
      else this.onCommand(text)
      this.call.clientKnown()
    } catch (error) {
      this.log('Internal error:', error)
      this.close(MicdropCloseCodes.InternalError, 'Internal error')
    }
  }

  private onAudio(audio: Buffer) {
    if (this.call.userAudio(audio)) this.safeEmit('UserAudio', audio)
  }

  private onCommand(text: string) {
    switch (text) {
      case MicdropClientCommands.StartSpeaking:
        return this.call.startSpeaking()
      case MicdropClientCommands.StopSpeaking:
        return this.call.stopSpeaking()
      case MicdropClientCommands.Mute:
        return this.call.mute()
      default:
        this.log(`Ignored unknown text frame: ${text.slice(0, 80)}`)
    }
  }

  private readonly onClose = (code?: number) => {
    if (this.ended) return
    this.ended = true
    // The answer playing keeps what the user heard of it: apps that persist on `Message` get it.
    this.sendingFinal = true
    this.call.hangUp()
    this.sendingFinal = false
    this.socket.off('message', this.onMessage)
    this.socket.off('close', this.onClose)
    this.socket.off('error', this.onError)
    this.call.destroy()
    this.store?.end(code === MicdropCloseCodes.Normal)
    this.writer.flush()
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
    this.safeEmit('End', summary)
    try {
      this.options.onEnd?.(summary)
    } catch (error) {
      this.log('onEnd threw:', error)
    }
    this.removeAllListeners()
  }

  private readonly onError = (error: Error) => {
    this.log('Socket error:', error)
  }

  /** An openmic client said what it does: the server answers with what it does. */
  private onHello(hello: MicdropClientHello) {
    this.call.captions = hello.captions === true
    this.call.reportsPlaybackEnd = hello.reportsPlaybackEnd === true
    this.call.saidHello = true
    this.send('Hello', { resume: this.options.resumeAfterNoise ?? true, settlesBargeIns: true })
    this.call.clientKnown()
  }

  private send(name: MicdropServerCommand, payload?: unknown) {
    if (this.ended && !this.sendingFinal) return
    const frame = encodeServerMessage(name, payload)
    if (PLAYBACK_FRAMES.has(name)) this.writer.send(frame, false)
    else this.deliver(() => this.writer.send(frame, false))
  }

  /**
   * A conversation change: recorded once final (the store, then the `Message` event), shown to the
   * client with a frame. A frame waits for its record to be stored (when there is a store), so that
   * every change the client sees is kept; events are not held: they follow the call as it happens.
   */
  private sendChange(change: ConversationChange, how: { frame: boolean; record: boolean }) {
    if (this.ended && !this.sendingFinal) return
    const [name, payload] =
      change.type === 'item'
        ? (['Message', change.item] as const)
        : (['CancelLastUserMessage', undefined] as const)
    if (how.record) this.store?.record(name, payload)
    if (how.frame) {
      const frame = encodeServerMessage(name, payload)
      this.deliver(() => this.writer.send(frame, false))
    }
    if (!how.record) return
    if (change.type === 'item') this.safeEmit('Message', change.item)
    else this.safeEmit('CancelLastUserMessage')
  }

  /** Audio goes at once, never behind a store write (see `PLAYBACK_FRAMES`). */
  private sendAudio(audio: Buffer, first: boolean) {
    if (this.ended) return
    this.writer.send(audio, true)
    // The answer's first audio is what the user waits for: it leaves now, not with the burst.
    if (first) this.writer.flush()
    this.safeEmit('AssistantAudio', audio)
  }

  /** Sends now, or after the store writes that frames wait for. */
  private deliver(send: () => void) {
    if (this.store) this.store.gate.deliver(send)
    else send()
  }

  /** Emits an event; a listener that throws is logged, never breaks the call. */
  private safeEmit<E extends keyof MicdropServerEvents>(event: E, ...args: MicdropServerEvents[E]) {
    try {
      ;(this.emit as (event: E, ...args: unknown[]) => boolean)(event, ...args)
    } catch (error) {
      this.log(`A ${event} listener threw:`, error)
    }
  }

  private log(...message: unknown[]) {
    this.options.logger?.log(...message)
  }
}
