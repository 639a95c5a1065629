import type { Agent, STT, TTS } from '@openmic/core'
import type {
  MicdropConversationItem,
  MicdropServerCommand,
  MicdropTurnMetrics,
} from '@openmic/core/protocol'
import type { TurnTimes } from '../metrics/turn-metrics.js'
import type { TurnReport } from '../metrics/turn-report.js'

/**
 * How an answer's production ended: `spoken` (all its audio was produced), `silent` (no text or no
 * audio came), `failed` (TTS or agent failure), `cancelled` (barge-in, a newer answer, the call
 * ended).
 */
export type AnswerOutcome = 'spoken' | 'silent' | 'failed' | 'cancelled'

/** A change to the conversation, as the client and the store see it. */
export type ConversationChange =
  { type: 'item'; item: MicdropConversationItem } | { type: 'cancel-last-user-message' }

/**
 * What a call does to the outside world: the socket and the server's events (called as methods
 * of the object given).
 */
export interface CallOutput {
  /** Sends a text frame (`Name` or `Name <json>`) that changes nothing in the conversation. */
  send(name: MicdropServerCommand, payload?: unknown): void
  /** Sends assistant audio; `first` is the first chunk of an answer (sent without delay). */
  audio(audio: Buffer, first: boolean): void
  /**
   * A change to the conversation: `record` keeps it (the store, the `Message` event: it is final),
   * `frame` shows it to the client (a `Message` or `CancelLastUserMessage` frame).
   */
  change(change: ConversationChange, how: { frame: boolean; record: boolean }): void
  metrics(metrics: MicdropTurnMetrics, times: TurnTimes): void
  /** A user turn is over. */
  turn(report: TurnReport): void
  answerEnd(outcome: AnswerOutcome): void
  log(...message: unknown[]): void
}

export interface CallControllerOptions {
  agent: Agent
  stt: STT
  tts: TTS
  output: CallOutput
  /** After `StopSpeaking`, how long to wait for a transcript before `SkipAnswer` (ms). */
  transcriptTimeoutMs: number
  /** Hold the answer a client paused at `StartSpeaking`, and resume it if the utterance is noise. */
  resumeAfterNoise: boolean
  /** After the paused-over utterance ended, how long to wait for noise before interrupting (ms). */
  resumeTimeoutMs: number
  /** With an STT that does not signal `TranscriptEnd`: how long an answer's output waits after its last piece (ms). */
  transcriptGraceMs: number
  /** Answer at the user's pauses (`pauseSpeaking`), holding the answer until the turn's end. */
  preemptive: boolean
}
