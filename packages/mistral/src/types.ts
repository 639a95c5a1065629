import type { HTTPClient } from '@mistralai/mistralai'
import type { AgentOptions, ModelAnswerLimits } from '@openmic/core'
import type { MistralChatRequest } from './convert/types.js'

/** Request fields MistralAgent lets through from `settings` (it sets the others itself). */
export type MistralChatSettings = Partial<
  Omit<MistralChatRequest, 'model' | 'messages' | 'tools' | 'stream'>
>

/** Options of {@link MistralAgent}: the agent options, the connection, the model and the limits. */
export interface MistralAgentOptions extends AgentOptions, ModelAnswerLimits {
  /** Mistral API key. Default: `process.env.MISTRAL_API_KEY`. */
  apiKey?: string
  /** Base URL of the API (default `https://api.mistral.ai`), e.g. a compatible server. */
  serverURL?: string
  /**
   * The SDK's `HTTPClient` requests are sent with, e.g. with hooks for tracing or logging, or
   * your own `fetcher`. MistralAgent reads the chat stream's body from its responses.
   */
  httpClient?: HTTPClient
  /** The model (default {@link DEFAULT_MISTRAL_MODEL}). */
  model?: string
  /** Passed through to each request: `temperature`, `maxTokens`, `toolChoice`, ... */
  settings?: MistralChatSettings
}

/** A fast current model, suited to voice. */
export const DEFAULT_MISTRAL_MODEL = 'mistral-small-latest'
