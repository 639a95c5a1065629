import { SpanKind, trace, type Attributes, type Context, type Tracer } from '@opentelemetry/api'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { TurnTimes } from '@openmic/server'
import { ATTR } from './attributes.js'
import type { SpanClock } from './clock.js'
import type { CallParts } from './call-parts.js'

/** What one turn's spans are made of: the `Metrics` event and where the turn sits in the call. */
export interface TurnRecord {
  metrics: MicdropTurnMetrics
  times: TurnTimes
  /** When the answer's production ended (the `Metrics` event; performance.now()). */
  endedAt: number
  number: number
}

/**
 * The span of one user turn and its children, built once the turn is over from the instants its
 * `Metrics` were measured from: the spans' durations are the event's numbers.
 */
export function recordTurnSpans(
  tracer: Tracer,
  parent: Context,
  clock: SpanClock,
  parts: CallParts,
  turn: TurnRecord
): void {
  const { metrics, times } = turn
  const turnSpan = tracer.startSpan(
    'openmic.turn',
    {
      kind: SpanKind.INTERNAL,
      startTime: clock.time(times.stopAt),
      attributes: turnAttributes(turn),
    },
    parent
  )
  const inTurn = trace.setSpan(parent, turnSpan)
  const child = (name: string, startAt: number, endAt: number, attributes: Attributes) => {
    const span = tracer.startSpan(
      name,
      { kind: SpanKind.CLIENT, startTime: clock.time(startAt), attributes },
      inTurn
    )
    span.end(clock.time(endAt))
  }
  if (times.transcriptAt !== undefined) {
    // A transcript may come before StopSpeaking (streaming STT): the wait was then nothing.
    child('openmic.stt', times.stopAt, Math.max(times.stopAt, times.transcriptAt), {
      [ATTR.sttProvider]: parts.stt.provider,
      ...(parts.stt.model !== undefined && { [ATTR.sttModel]: parts.stt.model }),
    })
  }
  const model = tracer.startSpan(
    parts.agent.model !== undefined ? `chat ${parts.agent.model}` : 'chat',
    {
      kind: SpanKind.CLIENT,
      startTime: clock.time(times.requestedAt),
      attributes: {
        [ATTR.operationName]: 'chat',
        [ATTR.genAiProvider]: parts.agent.provider,
        ...(parts.agent.model !== undefined && { [ATTR.requestModel]: parts.agent.model }),
        ...(metrics.agentFirstTextMs !== undefined && {
          [ATTR.agentFirstTextMs]: metrics.agentFirstTextMs,
        }),
      },
    },
    inTurn
  )
  if (times.firstTextAt !== undefined)
    model.addEvent('gen_ai.first_token', clock.time(times.firstTextAt))
  model.end(clock.time(turn.endedAt))
  if (times.firstTextAt !== undefined && times.firstAudioAt !== undefined) {
    child('openmic.tts', times.firstTextAt, times.firstAudioAt, {
      [ATTR.ttsProvider]: parts.tts.provider,
      ...(parts.tts.model !== undefined && { [ATTR.ttsModel]: parts.tts.model }),
    })
  }
  if (times.firstSentAt !== undefined)
    turnSpan.addEvent('openmic.first_audio_sent', clock.time(times.firstSentAt))
  turnSpan.end(clock.time(turn.endedAt))
}

function turnAttributes({ metrics, number }: TurnRecord): Attributes {
  const attributes: Attributes = { [ATTR.turnNumber]: number }
  if (metrics.sttMs !== undefined) attributes[ATTR.sttMs] = metrics.sttMs
  if (metrics.agentFirstTextMs !== undefined)
    attributes[ATTR.agentFirstTextMs] = metrics.agentFirstTextMs
  if (metrics.ttsFirstAudioMs !== undefined)
    attributes[ATTR.ttsFirstAudioMs] = metrics.ttsFirstAudioMs
  if (metrics.endToEndMs !== undefined) attributes[ATTR.voiceToVoiceMs] = metrics.endToEndMs
  return attributes
}
