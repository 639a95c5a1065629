import {
  SpanKind,
  context as otelContext,
  metrics as otelMetrics,
  trace,
  type Attributes,
  type Context,
  type MeterProvider,
  type TracerProvider,
} from '@opentelemetry/api'
import type { FallbackSwitch, ModelCallReport, ToolCallReport } from '@openmic/core'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type {
  BargeInVerdict,
  CallServer,
  StoreCallReport,
  StoreOperation,
  TurnReport,
  TurnTimes,
} from '@openmic/server'
import { ATTR } from './attributes.js'
import { callInstruments } from './call-metrics.js'
import { callParts, type CallModels, type CallParts, type Part } from './call-parts.js'
import { RecordPlacer, type CallRecord } from './call-records.js'
import { SpanClock } from './clock.js'
import { endReason } from './end-reason.js'
import {
  errorTypeOf,
  failureSpan,
  modelCallSpan,
  recordError,
  round,
  startSpan,
  toolCallSpan,
  type SpanKit,
} from './record-spans.js'
import type { TracedLogger } from './traced-logger.js'
import { recordEventAttributes, recordTurnSpans, turnStart } from './turn-spans.js'
import { onTransportClose } from './transport-close.js'

/** The name of the tracer and meter the spans and metrics come from. */
export const INSTRUMENTATION_NAME = '@openmic/otel'

export interface InstrumentCallOptions {
  /** Where the spans go (default: the global one, a no-op until an SDK registers one). */
  tracerProvider?: TracerProvider
  /** Where the metrics go (default: the global one, a no-op until an SDK registers one). */
  meterProvider?: MeterProvider
  /** The conversation's id (`gen_ai.conversation.id` on the call span), as given to the server. */
  conversationId?: string
  /** What carries the call (`openmic.transport`; default: the server's class name). */
  transport?: string
  /** The models of the agent, STT and TTS, for the attributes. */
  models?: CallModels
  /** The call span's parent (default: the active context, e.g. the HTTP upgrade's span). */
  parentContext?: Context
  /** The server's logger, if a {@link TracedLogger}: its lines get the call's trace id. */
  logger?: TracedLogger
}

/** What {@link instrumentCall} gives back. */
export interface CallTelemetry {
  /** The context of the call span: run work of the call in it to trace it as the call's. */
  readonly context: Context
  /** The call span's trace id (all zeros when tracing is off), for log lines. */
  readonly traceId: string
}

/**
 * Traces and measures one call, from outside it: call it right after creating the server
 * (`MicdropServer`, `TwilioServer`, `TelnyxServer`...), before the call opens. It listens to the
 * events of the server and of its agent, STT and TTS; the spans of a turn are built once the turn
 * is over (the server's `Turn` event), from the instants its `Metrics` were measured from, so
 * spans, histograms and the `Metrics` frame carry the same numbers.
 *
 * With no OpenTelemetry SDK registered (and no provider given) it does next to nothing: the spans
 * are not recording, and no span of a turn is built at all.
 *
 * @example
 * const server = new MicdropServer(socket, { agent, stt, tts, conversationId })
 * instrumentCall(server, { conversationId, models: { agent: 'gpt-4.1-mini' } })
 */
export function instrumentCall(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any transport's events
  server: CallServer<any>,
  options: InstrumentCallOptions = {}
): CallTelemetry {
  const call = server as unknown as CallServer
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION_NAME
  )
  const instruments = callInstruments(
    (options.meterProvider ?? otelMetrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME)
  )
  const clock = new SpanClock()
  const startedAt = Date.now()
  const parts = callParts(call, options.models)
  const transport = options.transport ?? call.constructor.name
  const metricAttributes: Attributes = { [ATTR.transport]: transport }
  const kit: SpanKit = { tracer, clock, parts, base: { [ATTR.transport]: transport } }
  const parentContext = options.parentContext ?? otelContext.active()
  const callSpan = tracer.startSpan(
    'openmic.call',
    {
      kind: SpanKind.SERVER,
      startTime: clock.time(),
      attributes: callAttributes(options, parts, transport),
    },
    parentContext
  )
  const callContext = trace.setSpan(parentContext, callSpan)
  const recording = callSpan.isRecording()
  if (recording && options.logger) options.logger.traceId = callSpan.spanContext().traceId
  let turns = 0
  instruments.activeCalls.add(1, metricAttributes)

  /** Errors already recorded on a turn's span: their `Failed` makes no span of its own. */
  const claimed = new WeakSet<object>()
  const isClaimed = (error: unknown) =>
    typeof error === 'object' && error !== null && claimed.has(error)
  /** A record that belongs to no turn (or came after its turn's span ended): on the call span. */
  const onCall = (record: CallRecord) => {
    if (record.kind === 'model') modelCallSpan(kit, callContext, record.report)
    else if (record.kind === 'tool') toolCallSpan(kit, callContext, record.report)
    else if (record.kind === 'failure') {
      if (!isClaimed(record.error))
        failureSpan(kit, callContext, record.part, record.provider, record.error, record.at)
    } else {
      const name = record.kind === 'interruption' ? 'openmic.interruption' : 'openmic.fallback'
      callSpan.addEvent(name, recordEventAttributes(record), clock.time(record.at))
    }
  }
  const placer = new RecordPlacer(onCall)
  const record = (entry: CallRecord) => {
    if (recording) placer.add(entry)
  }

  /**
   * The answers whose latencies were recorded at their `Metrics` event (by when they were asked
   * for): at once, as audio starts playing. A turn without one (failed, cut before its production
   * ended) has its latencies recorded when it is over.
   */
  const measured = new Set<number>()
  const onMetrics = (metrics: MicdropTurnMetrics, times: TurnTimes) => {
    measured.add(times.requestedAt)
    recordLatencies(metrics, times.stopAt, performance.now())
  }
  const onTurn = (report: TurnReport) => {
    turns++
    instruments.turns.add(1, { ...metricAttributes, [ATTR.turnOutcome]: report.outcome })
    const { requestedAt, stopAt, producedAt } = report.times
    if (requestedAt === undefined || !measured.delete(requestedAt))
      recordLatencies(report.metrics, stopAt, producedAt)
    if (!recording) return
    const { failure } = report
    if (typeof failure?.error === 'object' && failure.error !== null) claimed.add(failure.error)
    const records = placer.take(turnStart(report))
    placer.placed(recordTurnSpans(kit, callContext, report, turns, records, { late: onCall }))
  }
  /** A turn's latencies; `producedAt`: when its answer's production ended. */
  const recordLatencies = (metrics: MicdropTurnMetrics, stopAt: number, producedAt?: number) => {
    if (metrics.endToEndMs !== undefined)
      instruments.voiceToVoice.record(metrics.endToEndMs, metricAttributes)
    if (metrics.sttMs !== undefined) instruments.stt.record(metrics.sttMs, metricAttributes)
    if (metrics.agentFirstTextMs !== undefined)
      instruments.modelFirstText.record(metrics.agentFirstTextMs, metricAttributes)
    if (metrics.ttsFirstAudioMs !== undefined)
      instruments.ttsFirstAudio.record(metrics.ttsFirstAudioMs, metricAttributes)
    if (metrics.endToEndMs !== undefined && producedAt !== undefined)
      instruments.turnDuration.record(round(Math.max(0, producedAt - stopAt)), metricAttributes)
  }
  const onBargeIn = (verdict: BargeInVerdict, heardMs: number, at: number) => {
    const kind = verdict === 'interrupted' ? 'real' : 'false'
    instruments.interruptions.add(1, { ...metricAttributes, [ATTR.interruptionKind]: kind })
    record({ kind: 'interruption', at, verdict, heardMs })
  }
  const onModelCall = (report: ModelCallReport) => {
    const { usage } = report
    if (usage) {
      const attributes = {
        ...metricAttributes,
        [ATTR.operationName]: 'chat',
        [ATTR.genAiProvider]: report.provider,
        ...(parts.agent.model !== undefined && { [ATTR.requestModel]: parts.agent.model }),
      }
      if (usage.inputTokens !== undefined)
        instruments.tokenUsage.record(usage.inputTokens, {
          ...attributes,
          [ATTR.tokenType]: 'input',
        })
      if (usage.outputTokens !== undefined)
        instruments.tokenUsage.record(usage.outputTokens, {
          ...attributes,
          [ATTR.tokenType]: 'output',
        })
    }
    record({ kind: 'model', at: report.startAt, report })
  }
  const onToolCall = (report: ToolCallReport) =>
    record({ kind: 'tool', at: report.startAt, report })
  const countFailure = (part: Part | 'store', provider: string | undefined, error: unknown) =>
    instruments.failures.add(1, {
      ...metricAttributes,
      [ATTR.part]: part,
      ...(provider !== undefined && { [ATTR.provider]: provider }),
      [ATTR.errorType]: errorTypeOf(error),
    })
  const partListeners = (part: Part) => {
    const provider = () => call[part].providerName
    return {
      Failed: (error: unknown) => {
        countFailure(part, provider(), error)
        if (!isClaimed(error))
          record({ kind: 'failure', at: performance.now(), part, provider: provider(), error })
      },
      Fallback: (fallback: FallbackSwitch) => {
        // The provider left failed: counted as its failure, and as a fallback taken
        countFailure(part, fallback.from, fallback.error)
        instruments.fallbacks.add(1, {
          ...metricAttributes,
          [ATTR.part]: part,
          [ATTR.fallbackFrom]: fallback.from,
          [ATTR.fallbackTo]: fallback.to,
        })
        record({ kind: 'fallback', at: performance.now(), part, fallback })
      },
    }
  }
  const listeners = {
    agent: partListeners('agent'),
    stt: partListeners('stt'),
    tts: partListeners('tts'),
  }
  const onStoreCall = (report: StoreCallReport) => {
    if (!recording) return
    const span = startSpan(kit, `openmic.store.${report.operation}`, callContext, report.startAt, {
      [ATTR.storeOperation]: report.operation,
      ...(report.index !== undefined && { [ATTR.storeIndex]: report.index }),
    })
    if (report.error !== undefined) recordError(kit, span, report.error, report.endAt)
    span.end(clock.time(report.endAt))
  }
  const onStoreError = (error: unknown, operation: StoreOperation) => {
    countFailure('store', undefined, error)
    callSpan.addEvent(
      'openmic.store_error',
      { [ATTR.storeOperation]: operation, [ATTR.errorType]: errorTypeOf(error) },
      clock.time()
    )
  }

  for (const part of PARTS) {
    emitterOf(call, part).on('Failed', listeners[part].Failed)
    emitterOf(call, part).on('Fallback', listeners[part].Fallback)
  }
  call.agent.on('ModelCallEnd', onModelCall)
  call.agent.on('ToolCallEnd', onToolCall)
  call.on('Metrics', onMetrics)
  call.on('Turn', onTurn)
  call.on('BargeIn', onBargeIn)
  call.on('StoreCall', onStoreCall)
  call.on('StoreError', onStoreError)

  let finished = false
  const finish = (code: number | undefined, durationS: number) => {
    if (finished) return
    finished = true
    for (const part of PARTS) {
      emitterOf(call, part).off('Failed', listeners[part].Failed)
      emitterOf(call, part).off('Fallback', listeners[part].Fallback)
    }
    call.agent.off('ModelCallEnd', onModelCall)
    call.agent.off('ToolCallEnd', onToolCall)
    instruments.activeCalls.add(-1, metricAttributes)
    placer.flush()
    callSpan.setAttributes({
      [ATTR.endReason]: endReason(code),
      [ATTR.callDuration]: durationS,
      [ATTR.callTurns]: turns,
      ...(code !== undefined && { [ATTR.closeCode]: code }),
    })
    callSpan.end(clock.time())
  }
  call.once('End', (summary, code) => finish(code, summary.duration))
  // Should `End` never come (its listeners removed), the transport's close still ends the call
  onTransportClose(call, (code) => finish(code, Math.round((Date.now() - startedAt) / 10) / 100))
  return { context: callContext, traceId: callSpan.spanContext().traceId }
}

const PARTS: readonly Part[] = ['agent', 'stt', 'tts']

/** The events every part (agent, STT, TTS) has alike. */
interface PartEvents {
  Failed: [error: unknown]
  Fallback: [fallback: FallbackSwitch]
}

/** A part as the emitter of the events they all have. */
interface PartEmitter {
  on<E extends keyof PartEvents>(event: E, listener: (...args: PartEvents[E]) => void): unknown
  off<E extends keyof PartEvents>(event: E, listener: (...args: PartEvents[E]) => void): unknown
}

function emitterOf(call: CallServer, part: Part): PartEmitter {
  return call[part] as unknown as PartEmitter
}

function callAttributes(
  options: InstrumentCallOptions,
  parts: CallParts,
  transport: string
): Attributes {
  const attributes: Attributes = {
    [ATTR.transport]: transport,
    [ATTR.genAiProvider]: parts.agent.provider,
    [ATTR.sttProvider]: parts.stt.provider,
    [ATTR.ttsProvider]: parts.tts.provider,
  }
  if (options.conversationId !== undefined) attributes[ATTR.conversationId] = options.conversationId
  if (parts.agent.model !== undefined) attributes[ATTR.requestModel] = parts.agent.model
  if (parts.stt.model !== undefined) attributes[ATTR.sttModel] = parts.stt.model
  if (parts.tts.model !== undefined) attributes[ATTR.ttsModel] = parts.tts.model
  return attributes
}
