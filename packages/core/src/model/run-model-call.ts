import type { MicdropConversationToolCall } from '../conversation/types.js'
import { AnswerWriter } from '../extract/AnswerWriter.js'
import { retryDelayMs, waitUnlessAborted } from '../retry/backoff.js'
import { FirstTokenTimeoutError, isRetryableError } from '../retry/errors.js'
import { ModelEventStream } from './model-event-stream.js'
import type { ModelCallReport, ModelCallRetry, ModelUsage } from '../telemetry/reports.js'
import type { ModelAnswerHost, ModelStreamPart } from './types.js'

/** What one model call produced. */
export interface ModelCallResult {
  /** The full text of this call, extraction tag included. */
  text: string
  toolCalls: MicdropConversationToolCall[]
}

const CANCELLED: ModelCallResult = Object.freeze({ text: '', toolCalls: [] }) as ModelCallResult

/**
 * Runs one model call of an answer: streams its text through an {@link AnswerWriter} (after `lead`,
 * what separates it from the text of the call before), collects its tool calls, and retries it
 * while it failed before writing any text (retryable errors only, at most `maxRetry` times).
 * This is the only place openmic retries a model call: provider SDKs are
 * set to never retry, so a failing request is sent exactly `maxRetry + 1` times.
 *
 * A call that breaks after text was written keeps that text (saved with `metadata.incomplete`) and
 * throws the original error: what the user heard is never said twice. Returns an empty result once
 * the answer is cancelled. However it ends, the host gets its report (`reportModelCall`).
 */
export async function runModelCall(
  host: ModelAnswerHost,
  step: number,
  lead = ''
): Promise<ModelCallResult> {
  const report = new CallReport(step)
  try {
    const result = await runAttempts(host, step, lead, report)
    host.reportModelCall?.(report.end(result === CANCELLED ? 'cancelled' : 'completed', result))
    return result
  } catch (error) {
    host.reportModelCall?.(report.end('failed', undefined, error))
    throw error
  }
}

async function runAttempts(
  host: ModelAnswerHost,
  step: number,
  lead: string,
  report: CallReport
): Promise<ModelCallResult> {
  for (let attempt = 0; ; attempt++) {
    const writer = new AnswerWriter(host.stream, host.startTag, lead)
    const toolCalls: MicdropConversationToolCall[] = []
    report.attemptStarted()
    try {
      await streamAttempt(host, step, attempt, (part) => {
        if (part.type === 'text') writer.write(part.delta)
        else if (part.type === 'tool-call') toolCalls.push(part.toolCall)
        report.part(part)
      })
      if (host.signal.aborted) return CANCELLED
      return { text: writer.end(), toolCalls }
    } catch (error) {
      if (host.signal.aborted) return CANCELLED
      if (writer.written > 0) {
        writer.flush()
        // Writing the rest may have cancelled the answer (a listener of its stream did): the
        // server keeps what was heard of it, nothing is saved here
        if (host.signal.aborted) return CANCELLED
        host.log('Model stream broke after text was written; keeping it:', error)
        host.saveAnswer(writer.writtenText(), { incomplete: true })
        throw error
      }
      if (attempt >= host.limits.maxRetry || !isRetryableError(error)) throw error
      host.log(`Model call failed before any text (attempt ${attempt + 1}), retrying:`, error)
      const delayMs = retryDelayMs(error, attempt)
      report.retried(attempt, delayMs, error)
      if (!(await waitUnlessAborted(delayMs, host.signal))) return CANCELLED
    }
  }
}

/** What one model call did, as its report says (see `ModelCallReport`). */
class CallReport {
  private readonly startAt = performance.now()
  private firstTokenAt?: number
  private usage?: ModelUsage
  private readonly retries: ModelCallRetry[] = []

  constructor(private readonly step: number) {}

  /** A new try: what the last one got does not count. */
  attemptStarted(): void {
    this.firstTokenAt = undefined
    this.usage = undefined
  }

  part(part: ModelStreamPart): void {
    if (part.type === 'usage') this.usage = part.usage
    else this.firstTokenAt ??= performance.now()
  }

  retried(attempt: number, delayMs: number, error: unknown): void {
    this.retries.push({ at: performance.now(), attempt, delayMs, error })
  }

  end(
    outcome: ModelCallReport['outcome'],
    result?: ModelCallResult,
    error?: unknown
  ): Omit<ModelCallReport, 'provider'> {
    return {
      step: this.step,
      startAt: this.startAt,
      firstTokenAt: this.firstTokenAt,
      endAt: performance.now(),
      outcome,
      ...(outcome === 'failed' && { error }),
      retries: this.retries,
      ...(this.usage && { usage: this.usage }),
      toolCalls: result?.toolCalls.length ?? 0,
    }
  }
}

/**
 * One try of a model call, with its own AbortController: it aborts when the answer is cancelled,
 * and when no part came within `firstTokenTimeoutMs` (the call then fails with
 * {@link FirstTokenTimeoutError}). Once the try is over, parts that still arrive are dropped.
 */
async function streamAttempt(
  host: ModelAnswerHost,
  step: number,
  attempt: number,
  consume: (part: ModelStreamPart) => void
): Promise<void> {
  const controller = new AbortController()
  const onAnswerAbort = () => controller.abort(host.signal.reason)
  host.signal.addEventListener('abort', onAnswerAbort, { once: true })
  if (host.signal.aborted) onAnswerAbort()

  let open = true
  let timedOut: FirstTokenTimeoutError | undefined
  let rejectTimeout: (error: FirstTokenTimeoutError) => void = () => {}
  // A source stuck in an await (a stalled request that ignores its signal) must not hold the
  // answer: the timeout settles the try on its own, without waiting for the source to give up.
  const timeout = new Promise<never>((_, reject) => (rejectTimeout = reject))
  const { firstTokenTimeoutMs } = host.limits
  let timer: ReturnType<typeof setTimeout> | undefined
  if (firstTokenTimeoutMs > 0 && Number.isFinite(firstTokenTimeoutMs)) {
    timer = setTimeout(() => {
      timedOut = new FirstTokenTimeoutError(firstTokenTimeoutMs)
      open = false
      controller.abort(timedOut)
      rejectTimeout(timedOut)
    }, firstTokenTimeoutMs)
  }

  const emit = (part: ModelStreamPart) => {
    if (!open) return
    if (part.type !== 'usage') clearTimeout(timer)
    consume(part)
  }
  try {
    const parts = host.call({ signal: controller.signal, step, attempt })
    const reading = readParts(parts, emit, () => !open || controller.signal.aborted)
    if (timer === undefined) return await reading
    reading.catch(() => {}) // settled by the race below, or ignored after a timeout
    await Promise.race([reading, timeout])
  } catch (error) {
    throw timedOut ?? error
  } finally {
    open = false
    clearTimeout(timer)
    host.signal.removeEventListener('abort', onAnswerAbort)
  }
}

/**
 * Hands each part to `emit` until the parts end or `stopped()` turns true. A
 * {@link ModelEventStream} maps and hands over each event in the same turn; any other
 * `AsyncIterable` is read part by part.
 */
async function readParts(
  parts: AsyncIterable<ModelStreamPart>,
  emit: (part: ModelStreamPart) => void,
  stopped: () => boolean
): Promise<void> {
  if (parts instanceof ModelEventStream) return parts.forEachPart(emit, stopped)
  const iterator = parts[Symbol.asyncIterator]()
  let completed = false
  try {
    for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
      emit(result.value)
      if (stopped()) return
    }
    completed = true
  } finally {
    // Not awaited: a source stuck in an await must not hold up the answer.
    if (!completed) iterator.return?.().catch(() => {})
  }
}
