import { SpanKind, trace, type Attributes, type Context, type Span } from '@opentelemetry/api'
import type { TurnReport } from '@openmic/server'
import { ATTR } from './attributes.js'
import type { CallRecord, PlacedTurn } from './call-records.js'
import {
  failureSpan,
  modelCallSpan,
  partAttributes,
  recordError,
  startSpan,
  timedSpan,
  toolCallSpan,
  type SpanKit,
} from './record-spans.js'

/** What becomes of records that are no span of the turn's (events, once its span has ended). */
export interface TurnEvents {
  /** An interruption or a fallback that came after its turn's span ended: on the call span. */
  late(record: CallRecord): void
}

/** The first instant a turn covers: a preemptive answer starts before the end is confirmed. */
export function turnStart({ times }: TurnReport): number {
  return Math.min(
    times.stopAt,
    times.pausedAt ?? Infinity,
    times.transcriptAt ?? Infinity,
    times.requestedAt ?? Infinity
  )
}

/**
 * The span of one user turn and its children, built once the turn is over from the instants the
 * server measured it with (its `Metrics` numbers are the spans' durations), and the records that
 * happened in it (model and tool calls, failures, interruptions, fallbacks).
 */
export function recordTurnSpans(
  kit: SpanKit,
  parent: Context,
  report: TurnReport,
  number: number,
  records: CallRecord[],
  events: TurnEvents
): PlacedTurn {
  const { times, failure } = report
  const start = turnStart(report)
  const turnSpan = startSpan(
    kit,
    'openmic.turn',
    parent,
    start,
    turnAttributes(report, number),
    SpanKind.INTERNAL
  )
  const inTurn = trace.setSpan(parent, turnSpan)
  if (start < times.stopAt) turnSpan.addEvent('openmic.user_stopped', kit.clock.time(times.stopAt))

  if (times.transcriptAt !== undefined || failure?.part === 'stt') {
    // From where the user stopped (paused, with preemptive answers) to the transcript; one that
    // came before gives a span of 0 ms
    const from = times.pausedAt ?? times.stopAt
    const to = failure?.part === 'stt' ? failure.at : times.transcriptAt!
    const stt = startSpan(kit, 'openmic.stt', inTurn, from, partAttributes(kit, 'stt'))
    if (failure?.part === 'stt') recordError(kit, stt, failure.error, failure.at)
    stt.end(kit.clock.time(Math.max(from, to)))
  }

  let agent: { context: Context; from: number } | undefined
  if (times.requestedAt !== undefined) {
    const span = startSpan(kit, 'invoke_agent', inTurn, times.requestedAt, {
      ...partAttributes(kit, 'agent'),
      ...(report.metrics.agentFirstTextMs !== undefined && {
        [ATTR.agentFirstTextMs]: report.metrics.agentFirstTextMs,
      }),
    })
    if (times.firstTextAt !== undefined)
      span.addEvent('openmic.first_text', kit.clock.time(times.firstTextAt))
    if (failure?.part === 'agent') recordError(kit, span, failure.error, failure.at)
    span.end(kit.clock.time(Math.max(times.requestedAt, times.producedAt ?? times.endedAt)))
    agent = { context: trace.setSpan(inTurn, span), from: times.requestedAt }
  }

  if (
    times.firstTextAt !== undefined &&
    (times.firstAudioAt !== undefined || failure?.part === 'tts')
  ) {
    const tts = startSpan(kit, 'openmic.tts', inTurn, times.firstTextAt, partAttributes(kit, 'tts'))
    const end = times.firstAudioAt ?? failure!.at
    if (times.firstAudioAt === undefined) recordError(kit, tts, failure!.error, failure!.at)
    tts.end(kit.clock.time(Math.max(times.firstTextAt, end)))
  } else if (failure?.part === 'tts') {
    failureSpan(kit, inTurn, 'tts', kit.parts.tts.provider, failure.error, failure.at)
  }
  if (times.firstSentAt !== undefined)
    turnSpan.addEvent('openmic.first_audio_sent', kit.clock.time(times.firstSentAt))

  const { playback } = report
  if (playback) {
    timedSpan(
      kit,
      'openmic.playback',
      inTurn,
      playback.startAt,
      playback.endAt,
      {
        [ATTR.heardMs]: playback.heardMs,
        [ATTR.sentMs]: playback.sentMs,
        [ATTR.playbackSource]: playback.source,
      },
      SpanKind.INTERNAL
    )
  }

  const place = (record: CallRecord, open?: Span) => {
    if (record.kind === 'model' || record.kind === 'tool') {
      const under = agent && record.at >= agent.from ? agent.context : inTurn
      if (record.kind === 'model') modelCallSpan(kit, under, record.report)
      else toolCallSpan(kit, under, record.report)
    } else if (record.kind === 'failure') {
      // The turn's own failure is on the span of its step already
      if (record.error !== failure?.error)
        failureSpan(kit, inTurn, record.part, record.provider, record.error, record.at)
    } else if (!open) {
      events.late(record)
    } else {
      open.addEvent(
        record.kind === 'interruption' ? 'openmic.interruption' : 'openmic.fallback',
        recordEventAttributes(record),
        kit.clock.time(record.at)
      )
    }
  }
  for (const record of records) place(record, turnSpan)
  turnSpan.end(kit.clock.time(Math.max(start, times.endedAt)))
  return {
    start,
    last: times.producedAt ?? times.endedAt,
    place: (record) => place(record),
  }
}

/** The attributes of an interruption or fallback event. */
export function recordEventAttributes(record: CallRecord): Attributes {
  if (record.kind === 'interruption') {
    return {
      [ATTR.interruptionKind]: record.verdict === 'interrupted' ? 'real' : 'false',
      [ATTR.heardMs]: record.heardMs,
    }
  }
  if (record.kind === 'fallback') {
    return {
      [ATTR.part]: record.part,
      [ATTR.fallbackFrom]: record.fallback.from,
      [ATTR.fallbackTo]: record.fallback.to,
      [ATTR.errorType]:
        record.fallback.error instanceof Error
          ? record.fallback.error.name
          : typeof record.fallback.error,
    }
  }
  return {}
}

function turnAttributes({ metrics, outcome, times }: TurnReport, number: number): Attributes {
  const attributes: Attributes = { [ATTR.turnNumber]: number, [ATTR.turnOutcome]: outcome }
  // Answered at the user's pause, before the end of the turn was confirmed
  if (times.requestedAt !== undefined && times.requestedAt < times.stopAt)
    attributes[ATTR.preemptive] = true
  if (metrics.sttMs !== undefined) attributes[ATTR.sttMs] = metrics.sttMs
  if (metrics.agentFirstTextMs !== undefined)
    attributes[ATTR.agentFirstTextMs] = metrics.agentFirstTextMs
  if (metrics.ttsFirstAudioMs !== undefined)
    attributes[ATTR.ttsFirstAudioMs] = metrics.ttsFirstAudioMs
  if (metrics.endToEndMs !== undefined) attributes[ATTR.voiceToVoiceMs] = metrics.endToEndMs
  return attributes
}
