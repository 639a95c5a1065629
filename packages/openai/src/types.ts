import type { AgentOptions, ModelAnswerLimits } from '@openmic/core'
import type OpenAI from 'openai'
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions'
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses'

/** Request fields of the Responses API passed through as they are (all but the ones openmic sets). */
export type OpenaiResponsesSettings = Omit<
  ResponseCreateParamsStreaming,
  'model' | 'input' | 'tools' | 'stream'
>

/** Request fields of Chat Completions passed through as they are (all but the ones openmic sets). */
export type OpenaiChatSettings = Omit<
  ChatCompletionCreateParamsStreaming,
  'model' | 'messages' | 'tools' | 'stream'
>

/** How the agent reaches the model. */
export interface OpenaiConnectionOptions {
  /** API key (default: the `OPENAI_API_KEY` environment variable, as the SDK reads it). */
  apiKey?: string
  /**
   * A ready client (e.g. wrapped for tracing). `apiKey` and `baseURL` are then ignored, and its
   * retries are turned off on each request: openmic retries (see `maxRetry`).
   */
  openai?: OpenAI
  /** Another server speaking the API, e.g. `http://localhost:11434/v1` (Ollama) with `api: 'chat'`. */
  baseURL?: string
  /** Model name (default {@link DEFAULT_OPENAI_MODEL}). */
  model?: string
}

/** Options of {@link OpenaiAgent}. */
export type OpenaiAgentOptions = AgentOptions &
  ModelAnswerLimits &
  OpenaiConnectionOptions &
  (
    | {
        /** The Responses API (default). */
        api?: 'responses'
        /** Passed through to every request (e.g. `temperature`, `reasoning`, `store`). */
        settings?: OpenaiResponsesSettings
      }
    | {
        /** Chat Completions: OpenAI, or any compatible server (Ollama, vLLM, Groq, ...) via `baseURL`. */
        api: 'chat'
        /** Passed through to every request (e.g. `temperature`, `max_completion_tokens`). */
        settings?: OpenaiChatSettings
      }
  )

/**
 * The default model: fast to its first token and good at tools, which a voice call needs more than
 * deep reasoning. Set `model` for another one.
 */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini'
