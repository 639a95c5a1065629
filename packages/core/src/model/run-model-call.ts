import type { MicdropConversationToolCall } from '../conversation/types.js'
import { followAbort, unfollowAbort } from './abort-link.js'
import { abortControllers } from './made-ahead.js'
import { AnswerWriter } from '../extract/AnswerWriter.js'
import { retryDelayMs, waitUnlessAborted } from '../retry/backoff.js'
import { isRetryableError } from '../retry/errors.js'
import { FirstPartDeadline } from './first-part-deadline.js'
import { forEachPart } from './for-each-part.js'
import type { ModelAnswerHost, ModelStreamPart } from './types.js'

/** What one model call produced. */
export interface ModelCallResult {
  /** The full text of this call, extraction tag included. */
  text: string
  toolCalls: MicdropConversationToolCall[]
}

const CANCELLED: ModelCallResult = Object.freeze({ text: '', toolCalls: [] }) as ModelCallResult

/**
 * Runs one model call of an answer: streams its text through an {@link AnswerWriter}, collects its
 * tool calls, and retries it while it failed before writing any text. A call that breaks after text
 * was written keeps that text (saved with `metadata.incomplete`) and throws the original error.
 * Returns an empty result once the answer is cancelled.
 */
export async function runModelCall(host: ModelAnswerHost, step: number): Promise<ModelCallResult> {
  for (let attempt = 0; ; attempt++) {
    const writer = new AnswerWriter(host.stream, host.startTag)
    const toolCalls: MicdropConversationToolCall[] = []
    try {
      await streamAttempt(host, step, attempt, writer, toolCalls)
      if (host.signal.aborted) return CANCELLED
      return { text: writer.end(), toolCalls }
    } catch (error) {
      if (host.signal.aborted) return CANCELLED
      if (writer.written > 0) {
        writer.flush()
        host.log('Model stream broke after text was written; keeping it:', error)
        host.saveAnswer(writer.writtenText(), { incomplete: true })
        throw error
      }
      if (attempt >= host.limits.maxRetry || !isRetryableError(error)) throw error
      host.log(`Model call failed before any text (attempt ${attempt + 1}), retrying:`, error)
      if (!(await waitUnlessAborted(retryDelayMs(error, attempt), host.signal))) return CANCELLED
    }
  }
}

/**
 * One try of a model call. Its signal aborts with the answer's, and on a first-token timeout.
 * Parts are consumed as they are emitted (no wrapper per part): this is the hot path. Once the
 * attempt is over (done, failed, timed out or cancelled), late parts are dropped.
 */
async function streamAttempt(
  host: ModelAnswerHost,
  step: number,
  attempt: number,
  writer: AnswerWriter,
  toolCalls: MicdropConversationToolCall[]
): Promise<void> {
  const attemptAbort = abortControllers.take()
  let open = !host.signal.aborted
  const forwardAbort = () => {
    open = false
    attemptAbort.abort(host.signal.reason)
  }
  followAbort(host.signal, forwardAbort)
  const deadline = new FirstPartDeadline(host.limits.firstTokenTimeoutMs, (error) =>
    attemptAbort.abort(error)
  )
  const emit = (part: ModelStreamPart) => {
    if (open) consume(part, writer, toolCalls)
    // After the text is on its way: the deadline's bookkeeping can wait that long.
    deadline.met()
  }
  try {
    const parts = host.call({ signal: attemptAbort.signal, step, attempt })
    const reading = forEachPart(parts, emit, () => !open)
    await deadline.firstPart(reading)
    await reading
  } finally {
    open = false
    unfollowAbort(host.signal, forwardAbort)
  }
}

function consume(
  part: ModelStreamPart,
  writer: AnswerWriter,
  toolCalls: MicdropConversationToolCall[]
) {
  if (part.type === 'text') writer.write(part.delta)
  else if (part.type === 'tool-call') toolCalls.push(part.toolCall)
}
