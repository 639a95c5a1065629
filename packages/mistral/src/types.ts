import type { Mistral } from '@mistralai/mistralai'
import type { AgentOptions, ModelAnswerLimits } from '@openmic/core'
import type { MistralChatRequest } from './convert/types.js'

/** Request fields MistralAgent lets through from `settings` (it sets the others itself). */
export type MistralChatSettings = Partial<
  Omit<MistralChatRequest, 'model' | 'messages' | 'tools' | 'stream'>
>

/** Options of {@link MistralAgent}: the agent options, the client, the model and the limits. */
export interface MistralAgentOptions extends AgentOptions, ModelAnswerLimits {
  /** Mistral API key. Default: `process.env.MISTRAL_API_KEY`. Ignored when `mistral` is given. */
  apiKey?: string
  /** A ready client (e.g. wrapped for tracing). MistralAgent sets the retries of each request. */
  mistral?: Mistral
  /** Base URL of the API (default `https://api.mistral.ai`). Ignored when `mistral` is given. */
  serverURL?: string
  /** The model (default {@link DEFAULT_MISTRAL_MODEL}). */
  model?: string
  /** Passed through to each request: `temperature`, `maxTokens`, `toolChoice`, ... */
  settings?: MistralChatSettings
}

/** A fast current model, suited to voice. */
export const DEFAULT_MISTRAL_MODEL = 'mistral-small-latest'
