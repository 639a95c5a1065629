import type { Agent, STT, TTS } from '@openmic/core'
import type { MicdropServerCommand, MicdropTurnMetrics } from '@openmic/core/protocol'
import type { AnswerOutcome } from '../answer/AnswerRun.js'

/**
 * What a call does to the outside world: the socket and the server's events. Its functions are
 * called unbound.
 */
export interface CallOutput {
  /** Sends a text command (`Name` or `Name <json>`). */
  send(name: MicdropServerCommand, payload?: unknown): void
  /** Sends assistant audio; `first` is the first chunk of an answer (sent without delay). */
  audio(audio: Buffer, first: boolean): void
  metrics(metrics: MicdropTurnMetrics): void
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
  /** With an STT that does not signal `TranscriptEnd`: the wait after its last piece (ms). */
  transcriptGraceMs: number
}
