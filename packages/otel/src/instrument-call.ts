import {
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  metrics as otelMetrics,
  trace,
  type Attributes,
  type Context,
  type MeterProvider,
  type TracerProvider,
} from '@opentelemetry/api'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { BargeInVerdict, CallServer, TurnTimes } from '@openmic/server'
import { ATTR } from './attributes.js'
import { callInstruments } from './call-metrics.js'
import { callParts, type CallModels, type PartName } from './call-parts.js'
import { SpanClock } from './clock.js'
import { endReason } from './end-reason.js'
import type { TracedLogger } from './traced-logger.js'
import { recordTurnSpans } from './turn-spans.js'

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

type Part = 'agent' | 'stt' | 'tts'

/**
 * Traces and measures one call, from outside it: call it right after creating the server
 * (`MicdropServer`, `TwilioServer`, `TelnyxServer`...), before the call opens. It listens to the
 * server's events only; the spans of a turn are built from the instants its `Metrics` event was
 * measured from, so spans, histograms and the `Metrics` frame carry the same numbers.
 *
 * With no OpenTelemetry SDK registered (and no provider given) it does next to nothing: the spans
 * are not recording, and the turns' child spans are not built at all.
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
  const parts = callParts(call, options.models)
  const transport = options.transport ?? call.constructor.name
  const metricAttributes: Attributes = { [ATTR.transport]: transport }
  const callSpan = tracer.startSpan(
    'openmic.call',
    {
      kind: SpanKind.SERVER,
      startTime: clock.time(),
      attributes: callAttributes(options, parts, transport),
    },
    options.parentContext ?? otelContext.active()
  )
  const callContext = trace.setSpan(options.parentContext ?? otelContext.active(), callSpan)
  const recording = callSpan.isRecording()
  if (recording && options.logger) options.logger.traceId = callSpan.spanContext().traceId
  let turns = 0
  instruments.activeCalls.add(1, metricAttributes)

  const onMetrics = (metrics: MicdropTurnMetrics, times: TurnTimes) => {
    const endedAt = performance.now()
    turns++
    recordTurnMetrics(metrics, endedAt - times.stopAt)
    if (recording)
      recordTurnSpans(tracer, callContext, clock, parts, { metrics, times, endedAt, number: turns })
  }
  const recordTurnMetrics = (metrics: MicdropTurnMetrics, durationMs: number) => {
    instruments.turns.add(1, metricAttributes)
    if (metrics.endToEndMs !== undefined)
      instruments.voiceToVoice.record(metrics.endToEndMs, metricAttributes)
    if (metrics.sttMs !== undefined) instruments.stt.record(metrics.sttMs, metricAttributes)
    if (metrics.agentFirstTextMs !== undefined)
      instruments.modelFirstText.record(metrics.agentFirstTextMs, metricAttributes)
    if (metrics.ttsFirstAudioMs !== undefined)
      instruments.ttsFirstAudio.record(metrics.ttsFirstAudioMs, metricAttributes)
    instruments.turnDuration.record(Math.round(durationMs * 100) / 100, metricAttributes)
  }
  const onBargeIn = (verdict: BargeInVerdict) => {
    const kind = verdict === 'interrupted' ? 'real' : 'false'
    instruments.interruptions.add(1, { ...metricAttributes, [ATTR.interruptionKind]: kind })
    callSpan.addEvent('openmic.interruption', { [ATTR.interruptionKind]: kind }, clock.time())
  }
  const failed = (part: Part, name: PartName) => (error: unknown) => {
    const errorType = errorTypeOf(error)
    instruments.failures.add(1, {
      ...metricAttributes,
      [ATTR.part]: part,
      [ATTR.provider]: name.provider,
      [ATTR.errorType]: errorType,
    })
    if (!recording) return
    // The failing part's own span, at the instant it reported the failure.
    const at = clock.time()
    const span = tracer.startSpan(
      part === 'agent' ? 'chat' : `openmic.${part}`,
      {
        kind: SpanKind.CLIENT,
        startTime: at,
        attributes: {
          [ATTR.part]: part,
          [ATTR.provider]: name.provider,
          [ATTR.errorType]: errorType,
        },
      },
      callContext
    )
    if (error instanceof Error) span.recordException(error, at)
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) })
    span.end(at)
  }
  const listeners = {
    agent: failed('agent', parts.agent),
    stt: failed('stt', parts.stt),
    tts: failed('tts', parts.tts),
  }
  call.agent.on('Failed', listeners.agent)
  call.stt.on('Failed', listeners.stt)
  call.tts.on('Failed', listeners.tts)
  call.on('Metrics', onMetrics)
  call.on('BargeIn', onBargeIn)
  call.once('End', (summary, code) => {
    call.agent.off('Failed', listeners.agent)
    call.stt.off('Failed', listeners.stt)
    call.tts.off('Failed', listeners.tts)
    instruments.activeCalls.add(-1, metricAttributes)
    callSpan.setAttributes({
      [ATTR.endReason]: endReason(code),
      [ATTR.callDuration]: summary.duration,
      [ATTR.callTurns]: turns,
      ...(code !== undefined && { [ATTR.closeCode]: code }),
    })
    callSpan.end(clock.time())
  })
  return { context: callContext, traceId: callSpan.spanContext().traceId }
}

function callAttributes(
  options: InstrumentCallOptions,
  parts: ReturnType<typeof callParts>,
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

function errorTypeOf(error: unknown): string {
  if (error instanceof Error) return error.name
  return typeof error
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
