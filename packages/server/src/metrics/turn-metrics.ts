import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { AnswerRun } from '../answer/AnswerRun.js'

/** When the user turn that an answer replies to ended, and when its transcript came. */
export interface TurnClock {
  /** `StopSpeaking` received (performance.now()). */
  stopAt: number
  /** The transcript that started the answer (performance.now()); may precede `stopAt`. */
  transcriptAt?: number
}

/** The latencies of one turn, in ms, rounded to 0.01 ms; a step that did not happen is left out. */
export function turnMetrics(turn: TurnClock, run: AnswerRun): MicdropTurnMetrics {
  const metrics: MicdropTurnMetrics = {}
  if (turn.transcriptAt !== undefined)
    metrics.sttMs = ms(Math.max(0, turn.transcriptAt - turn.stopAt))
  if (run.firstTextAt !== undefined) metrics.agentFirstTextMs = ms(run.firstTextAt - run.startedAt)
  if (run.firstTextAt !== undefined && run.firstAudioAt !== undefined) {
    metrics.ttsFirstAudioMs = ms(run.firstAudioAt - run.firstTextAt)
  }
  if (run.firstAudioAt !== undefined) metrics.endToEndMs = ms(run.firstAudioAt - turn.stopAt)
  return metrics
}

function ms(value: number): number {
  return Math.round(value * 100) / 100
}
