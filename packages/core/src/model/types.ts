import type { Writable } from 'node:stream'
import type { ModelEventStream } from './model-event-stream.js'
import type { MicdropAnswerMetadata, MicdropConversationToolCall } from '../conversation/types.js'
import type { ModelCallReport, ModelUsage } from '../telemetry/reports.js'

/**
 * What a provider's stream is mapped onto. A provider turns its wire events into these parts and
 * the shared step loop does the rest (writing, extraction, tools, retries, cancellation).
 */
export type ModelStreamPart =
  /** Answer text, streamed to the user. */
  | { type: 'text'; delta: string }
  /** The model is thinking: counts as a sign of life for the first-token timeout, never spoken. */
  | { type: 'reasoning'; delta?: string }
  /** A complete tool call (arguments assembled), executed once the model call ends. */
  | { type: 'tool-call'; toolCall: MicdropConversationToolCall }
  /**
   * The tokens the call used, as the provider reports them (usually with its last event): for
   * tracing only, not a sign of life. The last one of a call wins.
   */
  | { type: 'usage'; usage: ModelUsage }

/** What a provider receives for each model call of an answer. */
export interface ModelCallRequest {
  /** Aborts on cancel and on first-token timeout: pass it to the SDK request. */
  signal: AbortSignal
  /** 0 for the first model call of an answer, then 1, 2, ... after each round of tool calls. */
  step: number
  /** 0 for the first try of this step, then 1, 2, ... for retries. */
  attempt: number
}

/**
 * Calls the model with the conversation as it is now and streams its parts. Throw (or let the SDK
 * throw) on failure; errors keep their HTTP status. Any `AsyncIterable` works; a
 * {@link ModelEventStream} (an SDK stream with a synchronous mapper) is read without an async step
 * per part.
 */
export type ModelCall = (request: ModelCallRequest) => AsyncIterable<ModelStreamPart>

/** Limits of one answer, as provider agents expose them in their options. */
export interface ModelAnswerLimits {
  /** Model calls per answer, tool rounds included (default 5). */
  maxSteps?: number
  /**
   * Retries of a model call that failed before writing any text (default 2): first-token timeouts,
   * refused or broken connections, and HTTP 408, 409, 429 and 5xx (waiting what `retry-after` asks,
   * up to 5 s). openmic is the only one retrying: a failing request is sent `maxRetry + 1` times.
   */
  maxRetry?: number
  /** A model call that sends nothing for this long fails (and is retried). Default 10 000 ms. */
  firstTokenTimeoutMs?: number
}

export const DEFAULT_MODEL_ANSWER_LIMITS: Required<ModelAnswerLimits> = {
  maxSteps: 5,
  maxRetry: 2,
  firstTokenTimeoutMs: 10_000,
}

/** What the step loop needs from the agent it works for. */
export interface ModelAnswerHost {
  stream: Writable
  signal: AbortSignal
  /** Start tag of the extraction, held back from the stream. */
  startTag?: string
  call: ModelCall
  limits: Required<ModelAnswerLimits>
  executeTool(
    toolCall: MicdropConversationToolCall
  ): Promise<{ output: unknown; skipAnswer?: boolean }>
  saveAnswer(text: string, metadata?: MicdropAnswerMetadata): void
  log(...message: unknown[]): void
  /** Called once per model call as it ends (completed, cancelled or failed). Must not throw. */
  reportModelCall?(report: Omit<ModelCallReport, 'provider'>): void
}
