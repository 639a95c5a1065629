import type { HTTPClient } from '@mistralai/mistralai'
import type { SentenceTTSOptions } from '@openmic/core/provider'

/** Options of {@link MistralTTS}: the connection, the voice, and SentenceTTS's pipelining. */
export interface MistralTTSOptions extends SentenceTTSOptions {
  /** Mistral API key. Default: `process.env.MISTRAL_API_KEY`. */
  apiKey?: string
  /** Base URL of the API (default `https://api.mistral.ai`), as MistralAgent's. */
  serverURL?: string
  /** The SDK's `HTTPClient` requests are sent with (hooks for tracing, your own `fetcher`...). */
  httpClient?: HTTPClient
  /** The speech model (default {@link DEFAULT_MISTRAL_TTS_MODEL}). */
  model?: string
  /**
   * A preset or saved voice (default {@link DEFAULT_MISTRAL_TTS_VOICE} when no `refAudio` is
   * given).
   */
  voiceId?: string
  /** Base64 reference audio to clone a voice from, instead of `voiceId`. */
  refAudio?: string
}

/** Voxtral Mini TTS, the latest version. */
export const DEFAULT_MISTRAL_TTS_MODEL = 'voxtral-mini-tts-latest'

/** A preset English voice. */
export const DEFAULT_MISTRAL_TTS_VOICE = 'en_paul_neutral'

/** Mistral's `pcm` speech: float32 little-endian samples, mono, at 24 kHz. */
export const MISTRAL_TTS_SAMPLE_RATE = 24_000
