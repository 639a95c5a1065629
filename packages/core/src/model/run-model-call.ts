import type { MicdropConversationToolCall } from '../conversation/types.js'
import { AnswerWriter } from '../extract/AnswerWriter.js'
import { backoffDelayMs, waitUnlessAborted } from '../retry/backoff.js'
import { isRetryableError } from '../retry/errors.js'
import { withFirstTokenTimeout } from '../retry/first-token-timeout.js'
import type { ModelAnswerHost } from './types.js'

/** What one model call produced. */
export interface ModelCallResult {
  /** The full text of this call, extraction tag included. */
  text: string
  toolCalls: MicdropConversationToolCall[]
}

/**
 * Runs one model call of an answer: streams its text through an {@link AnswerWriter}, collects its
 * tool calls, and retries it while it failed before writing any text. A call that breaks after text
 * was written keeps that text (saved with `metadata.incomplete`) and throws the original error.
 * Returns an empty result once the answer is cancelled.
 */
export async function runModelCall(host: ModelAnswerHost, step: number): Promise<ModelCallResult> {
  const { limits } = host
  for (let attempt = 0; ; attempt++) {
    const writer = new AnswerWriter(host.stream, host.startTag)
    const toolCalls: MicdropConversationToolCall[] = []
    const attemptAbort = new AbortController()
    const signal = AbortSignal.any([host.signal, attemptAbort.signal])
    try {
      const parts = withFirstTokenTimeout(
        host.call({ signal, step, attempt }),
        limits.firstTokenTimeoutMs,
        (error) => attemptAbort.abort(error)
      )
      for await (const part of parts) {
        if (host.signal.aborted) break
        if (part.type === 'text') writer.write(part.delta)
        else if (part.type === 'tool-call') toolCalls.push(part.toolCall)
      }
      if (host.signal.aborted) return { text: '', toolCalls: [] }
      return { text: writer.end(), toolCalls }
    } catch (error) {
      if (host.signal.aborted) return { text: '', toolCalls: [] }
      if (writer.written > 0) {
        host.log('Model stream broke after text was written; keeping it:', error)
        host.saveAnswer(writer.writtenText(), { incomplete: true })
        throw error
      }
      if (attempt >= limits.maxRetry || !isRetryableError(error)) throw error
      host.log(`Model call failed before any text (attempt ${attempt + 1}), retrying:`, error)
      if (!(await waitUnlessAborted(backoffDelayMs(attempt), host.signal))) {
        return { text: '', toolCalls: [] }
      }
    }
  }
}
