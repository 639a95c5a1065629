import type { Readable } from 'node:stream'
import { ProviderError } from '../retry/ProviderError.js'
import { followStream } from '../speech/follow-stream.js'
import { STT } from '../stt/STT.js'
import type { RealtimeInput } from './RealtimeInput.js'
import type { RealtimeSession } from './RealtimeSession.js'

/** One `transcribe()`: its audio, then its commit and outcome. */
interface Utterance {
  /** Audio not sent yet (an earlier utterance still streams). */
  held: Buffer[]
  sent: boolean
  ended: boolean
  input?: RealtimeInput
  /** Its transcript, kept until every earlier utterance has its outcome. */
  transcript?: string
  /** `Transcript` or `Failed` was decided for it. */
  settled: boolean
  timer?: NodeJS.Timeout
  detach: () => void
}

/**
 * A {@link RealtimeAgent}'s speech-to-text: each utterance's audio goes to the model's input as it
 * comes and is committed when it ends (the user's words become an item of the session's
 * conversation, which the model answers from), and the commit's transcription is emitted as
 * `Transcript` then `TranscriptEnd`. Utterances go one after the other; their transcripts come in
 * their order. A commit without transcript after the timeout, or whose transcription failed,
 * emits `Failed`.
 */
export class RealtimeSTT extends STT {
  /** Utterances whose audio is not all committed, in order: the first one streams. */
  private streaming: Utterance[] = []
  /** Utterances whose outcome is not emitted yet, in order. */
  private outcomes: Utterance[] = []
  private destroyed = false

  /** @internal Built by {@link RealtimeAgent}. */
  constructor(
    private readonly session: RealtimeSession,
    private readonly transcriptTimeoutMs: number
  ) {
    super()
  }

  /** The model's provider, for tracing. */
  override get providerName(): string {
    return this.session.model.providerName
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) {
      audio.resume()
      return
    }
    // The user speaks (again): an answer asked for their last words is not the answer any more
    this.session.userStarted()
    const utterance: Utterance = {
      held: [],
      sent: false,
      ended: false,
      settled: false,
      detach: () => {},
    }
    this.streaming.push(utterance)
    this.outcomes.push(utterance)
    utterance.detach = followStream<Buffer>(audio, {
      data: (chunk) => {
        utterance.held.push(chunk)
        this.pump()
      },
      end: () => {
        utterance.ended = true
        this.pump()
      },
      error: (error) => this.fail(utterance, error),
    })
  }

  override destroy(): void {
    this.destroyed = true
    for (const utterance of this.outcomes) {
      clearTimeout(utterance.timer)
      utterance.detach()
    }
    this.streaming = []
    this.outcomes = []
    super.destroy()
  }

  /** Sends what can be sent: the first utterance's audio, its commit once it ended, then the next. */
  private pump(): void {
    while (this.streaming.length > 0) {
      const utterance = this.streaming[0]!
      for (const chunk of utterance.held.splice(0)) {
        this.session.model.appendAudio(chunk)
        utterance.sent = true
      }
      if (!utterance.ended) return
      this.streaming.shift()
      utterance.detach()
      this.commit(utterance)
    }
  }

  private commit(utterance: Utterance): void {
    // The items openmic added meanwhile (a greeting, a resumed history) come before these words
    this.session.sync()
    const input = this.session.model.commitAudio()
    utterance.input = input
    this.session.committed(input)
    input.whenSettled(
      (transcript) => this.settle(utterance, transcript),
      (error) => this.fail(utterance, error)
    )
    if (utterance.settled) return
    const timeoutMs = this.transcriptTimeoutMs
    utterance.timer = setTimeout(() => {
      const error = new ProviderError(
        this.session.provider,
        `no transcript within ${timeoutMs} ms of the end of the utterance`
      )
      // The commit is given up: its item leaves the conversation, a late transcript is ignored
      input.fail(error)
    }, timeoutMs)
  }

  private settle(utterance: Utterance, transcript: string): void {
    if (utterance.settled || this.destroyed) return
    utterance.settled = true
    utterance.transcript = transcript
    clearTimeout(utterance.timer)
    this.release()
  }

  /** Emits `Failed` at once (a fallback can take over); later transcripts may then go. */
  private fail(utterance: Utterance, error: unknown): void {
    if (utterance.settled || this.destroyed) return
    utterance.settled = true
    clearTimeout(utterance.timer)
    utterance.detach()
    const index = this.streaming.indexOf(utterance)
    if (index !== -1) {
      // Its audio must not be committed with the next utterance's
      this.streaming.splice(index, 1)
      if (index === 0 && utterance.sent) this.session.model.clearAudio()
    }
    this.log('Failed:', error)
    this.emit('Failed', error)
    this.release()
    this.pump()
  }

  /** Emits the transcripts no earlier utterance holds back any more. */
  private release(): void {
    while (this.outcomes[0]?.settled) {
      const { transcript } = this.outcomes.shift()!
      if (transcript === undefined || this.destroyed) continue
      this.log(`Transcript: "${transcript}"`)
      this.emitFinalTranscript(transcript)
    }
  }
}
