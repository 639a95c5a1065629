import type { AgentOptions, ModelAnswerLimits } from '@openmic/core'
import type { CallSettings, LanguageModel, streamText, ToolChoice, ToolSet } from 'ai'

/**
 * The `streamText` call settings AiSdkAgent passes through to every model call: `temperature`,
 * `maxOutputTokens`, `headers`, `providerOptions`, `toolChoice`, ... The agent sets the model,
 * messages, tools and abort signal itself, and retries are openmic's (see `maxRetry`), so
 * `abortSignal` and `maxRetries` are not among them.
 */
export type AiSdkCallSettings = Omit<CallSettings, 'abortSignal' | 'maxRetries'> & {
  /** Provider-specific options, e.g. `{ anthropic: { thinking: { type: 'disabled' } } }`. */
  providerOptions?: Parameters<typeof streamText>[0]['providerOptions']
  /** Whether and which tool the model must call (default `'auto'`). */
  toolChoice?: ToolChoice<ToolSet>
}

/** Options of {@link AiSdkAgent}: the agent options, the model, its call settings and the limits. */
export interface AiSdkAgentOptions extends AgentOptions, ModelAnswerLimits {
  /**
   * The AI SDK language model that answers, e.g. `anthropic('claude-haiku-4-5')`,
   * `openai('gpt-4.1-mini')` or a model of an OpenAI-compatible server (Ollama, vLLM, ...).
   */
  model: LanguageModel
  /** Passed through to every model call (see {@link AiSdkCallSettings}). */
  settings?: AiSdkCallSettings
}
