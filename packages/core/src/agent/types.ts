import type { Writable } from 'node:stream'
import type {
  MicdropConversationMessage,
  MicdropConversationToolItem,
  MicdropToolCall,
} from '../conversation/types.js'
import type { ExtractJsonOptions, ExtractTagOptions } from '../extract/types.js'
import type { FallbackSwitch, ModelCallReport, ToolCallReport } from '../telemetry/reports.js'
import type { Agent } from './Agent.js'

/** Options every agent takes. Provider agents add their own (API key, model, ...). */
export interface AgentOptions {
  /** The system prompt: the first item of the conversation. */
  systemPrompt: string
  /**
   * Give the model an `end_call` tool, so it can end the call when the user asks to.
   * A string replaces the tool's default description.
   */
  autoEndCall?: boolean | string
  /**
   * Give the model a `semantic_turn` tool, so it can wait when the user stopped in the middle of a
   * sentence instead of answering. A string replaces the tool's default description.
   */
  autoSemanticTurn?: boolean | string
  /**
   * Give the model an `ignore_user_noise` tool, so it can drop a meaningless user message ("uh",
   * "hmm") instead of answering it. A string replaces the tool's default description.
   */
  autoIgnoreUserNoise?: boolean | string
  /** Extract a value written at the end of each answer, as JSON or between tags. */
  extract?: ExtractJsonOptions | ExtractTagOptions
  /**
   * Called before each answer is generated, bound to the agent. It may write to the answer stream;
   * returning `true` skips generation.
   */
  onBeforeAnswer?: (this: Agent, stream: Writable) => void | boolean | Promise<boolean | void>
}

/** Events of every agent. */
export interface AgentEvents {
  /** A system, user or assistant message was added to the conversation. */
  Message: [MicdropConversationMessage]
  /**
   * A `tool_call` or `tool_result` item was added to the conversation (openmic: kept apart from
   * `Message` so that listeners typed as in Micdrop's docs never receive an item without `content`).
   */
  ToolMessage: [MicdropConversationToolItem]
  /** The last user message was removed (it was noise). */
  CancelLastUserMessage: []
  /** No answer will be given for this turn. */
  SkipAnswer: []
  /** The call should end once the current answer has been spoken. */
  EndCall: []
  /** A tool declared with `emitOutput: true` ran. */
  ToolCall: [MicdropToolCall]
  /** An answer failed: it ended early or produced nothing. Carries the error. */
  Failed: [error: unknown]
  /**
   * openmic: a model call of the step loop (`streamModelAnswer`) ended: its timings, retries and
   * token usage, for tracing. Agents that run their own loop do not emit it.
   */
  ModelCallEnd: [report: ModelCallReport]
  /** openmic: a tool call of the model ran (any tool, whatever its outcome), for tracing. */
  ToolCallEnd: [report: ToolCallReport]
  /** openmic: a `FallbackAgent` switched to its next agent. */
  Fallback: [fallback: FallbackSwitch]
}

/** The names of {@link AgentEvents}, for code that forwards or records them all. */
export const AGENT_EVENT_NAMES = [
  'Message',
  'ToolMessage',
  'CancelLastUserMessage',
  'SkipAnswer',
  'EndCall',
  'ToolCall',
  'Failed',
  'ModelCallEnd',
  'ToolCallEnd',
  'Fallback',
] as const satisfies ReadonlyArray<keyof AgentEvents>
