import type { SentenceTTSOptions } from '@openmic/core/provider'
import type OpenAI from 'openai'
import type { SpeechCreateParams } from 'openai/resources/audio/speech'

/** Options of {@link OpenaiTTS}: Micdrop's, plus `baseURL`, `maxRetry` and the sentence pipeline's. */
export interface OpenaiTTSOptions extends SentenceTTSOptions {
  /** API key (default: the `OPENAI_API_KEY` environment variable, as the SDK reads it). */
  apiKey?: string
  /**
   * A ready client (e.g. wrapped for tracing). `apiKey` and `baseURL` are then ignored, and its
   * retries are turned off on each request: `OpenaiTTS` retries itself (see `maxRetry`).
   */
  openai?: OpenAI
  /** Another server speaking the API (same meaning as the SDK's `baseURL`). */
  baseURL?: string
  /** Speech model (default `gpt-4o-mini-tts`). */
  model?: SpeechCreateParams['model']
  /** Voice (default `alloy`), or a custom voice `{ id }`. */
  voice?: SpeechCreateParams['voice']
  /** How to speak, e.g. "Cheerful and fast." (`gpt-4o-mini-tts` only). */
  instructions?: string
  /** Speed from 0.25 to 4 (default 1; `tts-1` and `tts-1-hd` only). */
  speed?: number
  /**
   * Tries again of a sentence's request that failed before its first audio byte with a connection
   * error, HTTP 408, 409, 429 or 5xx (default 1). Other errors, and errors once audio was heard,
   * are never retried.
   */
  maxRetry?: number
}

/** The default speech model: fast, and it follows `instructions`. */
export const DEFAULT_OPENAI_TTS_MODEL = 'gpt-4o-mini-tts'
/** The default voice. */
export const DEFAULT_OPENAI_TTS_VOICE = 'alloy'
