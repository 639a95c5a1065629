// What an agent reports of its work, for tracing and metrics: one report per model call of an
// answer's step loop and per tool call, with the instants they happened at (performance.now(),
// the clock the server measures turns with).

/** Tokens a model call used, as the provider reported them. */
export interface ModelUsage {
  /** Tokens of the request (prompt). */
  inputTokens?: number
  /** Tokens the model produced (reasoning included when the provider counts it there). */
  outputTokens?: number
}

/** A try of a model call that failed before any text, and was tried again. */
export interface ModelCallRetry {
  /** When the try failed (performance.now()). */
  at: number
  /** The try that failed: 0 for the first. */
  attempt: number
  /** How long the step loop waited before the next try (ms). */
  delayMs: number
  error: unknown
}

/**
 * One model call of an answer's step loop (the `ModelCallEnd` event): from its first try's request
 * to its end, retries included.
 */
export interface ModelCallReport {
  /** 0 for the first model call of an answer, then 1, 2, ... after each round of tool calls. */
  step: number
  /** The provider that made it (its `providerName`). */
  provider: string
  /** When its first try was sent (performance.now()). */
  startAt: number
  /**
   * When the first part (text, reasoning or tool call) of the try that answered came: time to
   * first token. Undefined when none came.
   */
  firstTokenAt?: number
  /** When it ended (performance.now()). */
  endAt: number
  /** `completed`, `cancelled` (the answer was), or `failed` (with `error`). */
  outcome: 'completed' | 'cancelled' | 'failed'
  error?: unknown
  /** The tries that failed before any text and were tried again, in order. */
  retries: ModelCallRetry[]
  /** The tokens the try that answered used, when the provider reported them. */
  usage?: ModelUsage
  /** The tool calls it asked for. */
  toolCalls: number
}

/** One tool call the agent ran (the `ToolCallEnd` event). */
export interface ToolCallReport {
  name: string
  toolCallId: string
  /** When it started and ended (performance.now()): arguments parsed, checked, tool run. */
  startAt: number
  endAt: number
  /** Why it failed: unknown tool, invalid arguments, or the tool threw. */
  error?: string
}

/**
 * A fallback agent, STT or TTS switched providers (the `Fallback` event): `from` failed with
 * `error`, `to` takes over. Names are the providers' `providerName`.
 */
export interface FallbackSwitch {
  from: string
  to: string
  error: unknown
}
