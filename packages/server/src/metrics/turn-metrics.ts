import type { MicdropTurnMetrics } from '@openmic/core/protocol'

/** When the user turn that an answer replies to ended, and when its transcript came. */
export interface TurnClock {
  /**
   * `StopSpeaking` received (performance.now()); with preemptive answers, the confirmation of the
   * end of the turn after a pause (the answer may have started before).
   */
  stopAt: number
  /**
   * Preemptive answers: the user's last pause in the turn (`PauseSpeaking`, performance.now()),
   * where its transcription and answer started.
   */
  pausedAt?: number
  /** The transcript that started the answer (performance.now()); may precede `stopAt`. */
  transcriptAt?: number
}

/** When an answer was asked for, and when its first text and audio came and went (performance.now()). */
export interface AnswerTimes {
  requestedAt: number
  firstTextAt?: number
  /** The TTS's first audio. */
  firstAudioAt?: number
  /** The first audio handed to the socket. */
  firstSentAt?: number
}

/**
 * The instants a turn's metrics are measured from (performance.now()): what `Metrics` reports as
 * durations, for code that places them on a timeline (tracing).
 */
export type TurnTimes = TurnClock & AnswerTimes

/** The latencies of one turn, in ms, rounded to 0.01 ms; a step that did not happen is left out. */
export function turnMetrics(turn: TurnClock, answer: Partial<AnswerTimes>): MicdropTurnMetrics {
  const metrics: MicdropTurnMetrics = {}
  if (turn.transcriptAt !== undefined)
    metrics.sttMs = ms(Math.max(0, turn.transcriptAt - turn.stopAt))
  if (answer.firstTextAt !== undefined && answer.requestedAt !== undefined) {
    metrics.agentFirstTextMs = ms(answer.firstTextAt - answer.requestedAt)
  }
  if (answer.firstTextAt !== undefined && answer.firstAudioAt !== undefined) {
    metrics.ttsFirstAudioMs = ms(answer.firstAudioAt - answer.firstTextAt)
  }
  if (answer.firstSentAt !== undefined) metrics.endToEndMs = ms(answer.firstSentAt - turn.stopAt)
  return metrics
}

function ms(value: number): number {
  return Math.round(value * 100) / 100
}
