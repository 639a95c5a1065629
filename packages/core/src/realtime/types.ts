import type { ModelUsage } from '../telemetry/reports.js'

/** A tool as a realtime session offers it: its name, what it does, and its arguments' JSON Schema. */
export interface RealtimeToolSpec {
  name: string
  description: string
  /** JSON Schema of the arguments (from core's `toolJsonSchema`). */
  parameters: Record<string, unknown>
}

/** What a realtime session is told before it answers: the system prompt and the tools. */
export interface RealtimeSessionConfig {
  /** The system prompt. */
  instructions: string
  tools: RealtimeToolSpec[]
}

/** Options of one {@link RealtimeModel.respond} call. */
export interface RealtimeRespondOptions {
  /**
   * Whether the model may call the session's tools in this response (default true). False when
   * the conversation holds only the system prompt: the call's opening answer speaks, it does not
   * act (core's `shouldSendTools` rule).
   */
  tools?: boolean
}

/**
 * A piece of a response's output, in the order the provider sent it. Audio is PCM16 16 kHz mono,
 * whatever the provider's own rate. `itemId` is the provider's id of the conversation item the
 * piece belongs to.
 */
export type RealtimeOutput =
  /** An output item began: a spoken message, or a function call. */
  | { type: 'item'; itemId: string; kind: 'message' | 'function_call' }
  /** Speech of a message item. */
  | { type: 'audio'; itemId: string; audio: Buffer }
  /** Transcript of a message item's speech (what the model says, as text). */
  | { type: 'transcript'; itemId: string; delta: string }
  /** A complete function call; `arguments` is its JSON text as the model wrote it. */
  | { type: 'function-call'; itemId: string; callId: string; name: string; arguments: string }

/**
 * How a response ended: `completed`; `incomplete` (cut by the provider: output token limit,
 * content filter; what came stands); `cancelled` (after `cancel()`); `failed`, with the error.
 */
export interface RealtimeResponseEnd {
  status: 'completed' | 'incomplete' | 'cancelled' | 'failed'
  /** Why it failed (a `ProviderError` of the provider). */
  error?: unknown
  /**
   * The tokens the response used, when the provider reported them (a cancelled response's too):
   * the `usage` of the agent's `ModelCallEnd` report.
   */
  usage?: ModelUsage
}
