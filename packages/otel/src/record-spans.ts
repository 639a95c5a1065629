import {
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import type { ModelCallReport, ToolCallReport } from '@openmic/core'
import { ATTR } from './attributes.js'
import type { CallParts, Part } from './call-parts.js'
import type { SpanClock } from './clock.js'

/** What the spans of one call are made with. */
export interface SpanKit {
  tracer: Tracer
  clock: SpanClock
  parts: CallParts
  /** The attributes of every span (the transport). */
  base: Attributes
}

/** Starts a span at `startAt` (performance.now()) under `parent`; the caller ends it. */
export function startSpan(
  kit: SpanKit,
  name: string,
  parent: Context,
  startAt: number,
  attributes: Attributes,
  kind: SpanKind = SpanKind.CLIENT
): Span {
  return kit.tracer.startSpan(
    name,
    { kind, startTime: kit.clock.time(startAt), attributes: { ...kit.base, ...attributes } },
    parent
  )
}

/** A span from `startAt` to `endAt`, ended. */
export function timedSpan(
  kit: SpanKit,
  name: string,
  parent: Context,
  startAt: number,
  endAt: number,
  attributes: Attributes,
  kind?: SpanKind
): Span {
  const span = startSpan(kit, name, parent, startAt, attributes, kind)
  span.end(kit.clock.time(Math.max(startAt, endAt)))
  return span
}

/** Marks `span` failed with `error` at `at`: status ERROR, the exception, `error.type`. */
export function recordError(kit: SpanKit, span: Span, error: unknown, at: number): void {
  span.setAttribute(ATTR.errorType, errorTypeOf(error))
  if (error instanceof Error) span.recordException(error, kit.clock.time(at))
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) })
}

/** The span of a part's step, as a failure of it is recorded on. */
export function partSpanName(part: Part): string {
  if (part !== 'agent') return `openmic.${part}`
  return 'invoke_agent'
}

/** The attributes of a part's step span: its provider and model. */
export function partAttributes(kit: SpanKit, part: Part): Attributes {
  const { provider, model } = kit.parts[part]
  if (part === 'agent') {
    return {
      [ATTR.operationName]: 'invoke_agent',
      [ATTR.genAiProvider]: provider,
      ...(model !== undefined && { [ATTR.requestModel]: model }),
    }
  }
  const names =
    part === 'stt' ? [ATTR.sttProvider, ATTR.sttModel] : [ATTR.ttsProvider, ATTR.ttsModel]
  return { [names[0]!]: provider, ...(model !== undefined && { [names[1]!]: model }) }
}

/** A failure reported apart from any step span: a span of its part, at its instant. */
export function failureSpan(
  kit: SpanKit,
  parent: Context,
  part: Part,
  provider: string,
  error: unknown,
  at: number
): void {
  const span = startSpan(kit, partSpanName(part), parent, at, {
    ...partAttributes(kit, part),
    [ATTR.part]: part,
    [ATTR.provider]: provider,
  })
  recordError(kit, span, error, at)
  span.end(kit.clock.time(at))
}

/**
 * One model call (GenAI `chat` span): time to first token, token usage, its retries as events,
 * its error.
 */
export function modelCallSpan(kit: SpanKit, parent: Context, report: ModelCallReport): void {
  const model = kit.parts.agent.model
  const attributes: Attributes = {
    [ATTR.operationName]: 'chat',
    [ATTR.genAiProvider]: report.provider,
    [ATTR.modelStep]: report.step,
    [ATTR.modelOutcome]: report.outcome,
  }
  if (model !== undefined) attributes[ATTR.requestModel] = model
  if (report.usage?.inputTokens !== undefined)
    attributes[ATTR.inputTokens] = report.usage.inputTokens
  if (report.usage?.outputTokens !== undefined)
    attributes[ATTR.outputTokens] = report.usage.outputTokens
  if (report.firstTokenAt !== undefined)
    attributes[ATTR.timeToFirstTokenMs] = round(report.firstTokenAt - report.startAt)
  const span = startSpan(
    kit,
    model !== undefined ? `chat ${model}` : 'chat',
    parent,
    report.startAt,
    attributes
  )
  if (report.firstTokenAt !== undefined)
    span.addEvent('gen_ai.first_token', kit.clock.time(report.firstTokenAt))
  for (const retry of report.retries) {
    span.addEvent(
      'openmic.retry',
      {
        [ATTR.retryAttempt]: retry.attempt,
        [ATTR.retryDelayMs]: retry.delayMs,
        [ATTR.errorType]: errorTypeOf(retry.error),
        'exception.message': errorMessage(retry.error),
      },
      kit.clock.time(retry.at)
    )
  }
  if (report.outcome === 'failed') recordError(kit, span, report.error, report.endAt)
  span.end(kit.clock.time(report.endAt))
}

/** One tool call (GenAI `execute_tool` span), with its error. */
export function toolCallSpan(kit: SpanKit, parent: Context, report: ToolCallReport): void {
  const span = startSpan(
    kit,
    `execute_tool ${report.name}`,
    parent,
    report.startAt,
    {
      [ATTR.operationName]: 'execute_tool',
      [ATTR.toolName]: report.name,
      [ATTR.toolCallId]: report.toolCallId,
    },
    SpanKind.INTERNAL
  )
  if (report.error !== undefined) {
    span.setAttribute(ATTR.errorType, 'tool_error')
    span.setStatus({ code: SpanStatusCode.ERROR, message: report.error })
  }
  span.end(kit.clock.time(report.endAt))
}

export function errorTypeOf(error: unknown): string {
  if (error instanceof Error) return error.name
  return typeof error
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function round(ms: number): number {
  return Math.round(ms * 100) / 100
}
