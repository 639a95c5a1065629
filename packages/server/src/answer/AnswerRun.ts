import type { Readable } from 'node:stream'
import type { TTS } from '@openmic/core'
import { createPushStream } from '../streams/push-stream.js'

/**
 * How an answer (or a spoken text) ended: `spoken` (all its audio was sent), `silent` (no text or
 * no audio came), `failed` (TTS failure), `cancelled` (barge-in, a newer answer, the call ended).
 */
export type AnswerOutcome = 'spoken' | 'silent' | 'failed' | 'cancelled'

export interface AnswerRunOptions {
  /** The text to speak: an agent's answer stream, or a text given to `speak()`. */
  text: Readable
  tts: TTS
  /** Called with each audio chunk of this run, while it is current; `first` for its first one. */
  onAudio: (audio: Buffer, first: boolean) => void
  /**
   * When the text was asked for (performance.now()): the agent may start generating within its
   * `answer()`, before this run exists. Default: when the run is made.
   */
  requestedAt?: number
  /** Called once, when the run ends (never after `cancel()`). */
  onDone: (run: AnswerRun, outcome: AnswerOutcome) => void
}

/**
 * One answer being spoken: feeds its text to the TTS as it streams, passes the TTS audio on, and
 * tells when all of it has been sent (TTS `AudioEnd`). Times its first text and first audio.
 */
export class AnswerRun {
  readonly startedAt: number
  firstTextAt?: number
  firstAudioAt?: number
  textChars = 0
  audioBytes = 0
  /** The agent saved an assistant message during this run. */
  messageSaved = false
  /** The agent itself skipped the answer (it already sent `SkipAnswer`). */
  skipped = false
  private textEnded = false
  private finished = false
  private readonly input = createPushStream()

  constructor(private readonly options: AnswerRunOptions) {
    this.startedAt = options.requestedAt ?? performance.now()
  }

  /** True once the run ended or was cancelled: nothing of it may reach the client any more. */
  get done(): boolean {
    return this.finished
  }

  start(): void {
    const { text, tts } = this.options
    text.on('data', this.onText)
    text.on('end', this.onTextEnd)
    text.on('error', this.onTextEnd)
    try {
      tts.speak(this.input)
    } catch (error) {
      this.ttsFailed(error)
    }
  }

  audio(audio: Buffer): void {
    if (this.finished) return
    const first = this.firstAudioAt === undefined
    if (first) this.firstAudioAt = performance.now()
    this.audioBytes += audio.length
    this.options.onAudio(audio, first)
  }

  /** The TTS emitted all audio of the text it was given. */
  audioEnd(): void {
    if (this.finished || !this.textEnded) return
    this.finish(this.audioBytes > 0 ? 'spoken' : 'silent')
  }

  ttsFailed(_error: unknown): void {
    this.finish('failed')
  }

  /** Stops the run without calling `onDone`. The caller cancels the TTS and the agent. */
  cancel(): void {
    if (this.finished) return
    this.finished = true
    this.detach()
  }

  private readonly onText = (chunk: Buffer | string) => {
    if (this.finished || chunk.length === 0) return
    this.textChars += chunk.length
    this.firstTextAt ??= performance.now()
    this.input.push(chunk)
  }

  private readonly onTextEnd = () => {
    if (this.finished) return
    this.textEnded = true
    this.input.push(null)
    if (this.textChars === 0) this.finish('silent')
  }

  private finish(outcome: AnswerOutcome) {
    if (this.finished) return
    this.finished = true
    this.detach()
    this.options.onDone(this, outcome)
  }

  private detach() {
    const { text } = this.options
    text.off('data', this.onText)
    text.off('end', this.onTextEnd)
    text.off('error', this.onTextEnd)
    this.input.destroy()
  }
}
