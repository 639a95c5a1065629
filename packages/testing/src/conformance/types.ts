import type { Agent, AgentOptions } from '@openmic/core'

/** What the model answers to one model call in a conformance test. */
export interface ConformanceAnswer {
  /** Text deltas, streamed in order. */
  deltas?: string[]
  /** Tool calls made after the text. */
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>
  /** Fail this model call with this HTTP status, before any text. */
  errorStatus?: number
  /** With `errorStatus`: the `retry-after` header of the error, in seconds. */
  retryAfter?: number
  /** Wait this long before each delta, in ms (default 0). */
  delayMs?: number
  /** Send nothing at all (no status line) until the client gives up. */
  stall?: boolean
  /** Cut the connection after the deltas: a stream that breaks mid-answer. */
  breakAfterDeltas?: boolean
}

/** What a conformance test asks of the agent under test. */
export interface ConformanceSetup {
  /** Options to give the agent: system prompt, extraction, default tools, limits. */
  options: AgentOptions & { maxRetry: number; firstTokenTimeoutMs: number }
  /** The model's answers, one per model call, in order. */
  answers: ConformanceAnswer[]
  /**
   * When set, the agent must send its requests to this origin (`http://127.0.0.1:<port>`, no
   * path) instead of its fake server, e.g. OpenAI's `baseURL: \`${serverUrl}/v1\``. Only used by
   * the `network` cases.
   */
  serverUrl?: string
}

/**
 * Builds the agent under test for one conformance test: an agent given `setup.options` whose model
 * answers `setup.answers` (a fake server scripted with {@link fakeResponsesOf}, a mock, ...).
 */
export type MakeConformanceAgent = (setup: ConformanceSetup) => Agent | Promise<Agent>
