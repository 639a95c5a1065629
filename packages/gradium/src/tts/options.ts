import type { GradiumRegion } from '../endpoint.js'

/**
 * The audio format asked for in `setup`. openmic's speech is PCM16 16 kHz mono: `pcm_16000` is used
 * as it comes; `pcm_24000` and `pcm` (48 kHz) are resampled to 16 kHz.
 */
export type GradiumOutputFormat = 'pcm_16000' | 'pcm_24000' | 'pcm'

/** Voice settings sent as `json_config` in `setup`. */
export interface GradiumTTSJsonConfig {
  /** Speed: from -4 (faster) to 4 (slower), default 0. */
  padding_bonus?: number
  /** Sampling temperature, 0 to 1.4 (default 0.7). */
  temp?: number
  /** Similarity to the voice, 1 to 4 (default 2). */
  cfg_coef?: number
  /** Text rewriting rules (`en`, `fr`... or rule names, comma-separated). */
  rewrite_rules?: string
  /** Any other setting the model accepts. */
  [key: string]: unknown
}

/** Options of {@link GradiumTTS}: Micdrop's names, plus `baseURL` and the timeouts in ms. */
export interface GradiumTTSOptions {
  /** API key, sent as `x-api-key` (default: the `GRADIUM_API_KEY` environment variable). */
  apiKey?: string
  /** The voice (an id of Gradium's library, e.g. `YTpq7expH9539ERJ`, or of your own voice). */
  voiceId: string
  /**
   * A region's host, `eu` (`eu.api.gradium.ai`) or `us`; default none: `api.gradium.ai`, the host
   * of Gradium's docs. Ignored with `baseURL`.
   */
  region?: GradiumRegion
  /**
   * Origin of the API (default `https://api.gradium.ai`, or the region's). The WebSocket URL is derived
   * from it: `https` → `wss`, `http` → `ws`, then `/api/speech/tts`.
   */
  baseURL?: string
  /** TTS model (default `default`). */
  modelName?: string
  /** Audio format asked for (default `pcm_16000`: no resampling). */
  outputFormat?: GradiumOutputFormat
  /** Voice settings, sent as `json_config`. */
  jsonConfig?: GradiumTTSJsonConfig
  /** Give up a connection that is not open after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * Give up a `speak()` when Gradium owes it an answer (its `ready`, or audio once its text has
   * ended) and sends nothing for this long, in ms (default 10000): `Failed`.
   */
  stallTimeoutMs?: number
}

export const GRADIUM_TTS_DEFAULTS = {
  modelName: 'default',
  outputFormat: 'pcm_16000',
  connectionTimeoutMs: 5000,
  stallTimeoutMs: 10_000,
} as const

/** Sample rate of each output format. */
export const OUTPUT_SAMPLE_RATES: Record<GradiumOutputFormat, number> = {
  pcm_16000: 16_000,
  pcm_24000: 24_000,
  pcm: 48_000,
}
