import type { GradiumRegion } from '../endpoint.js'

/**
 * The audio format announced in `setup`. openmic's audio is PCM16 16 kHz mono: `pcm_16000` sends
 * it as it is; `pcm_24000` and `pcm` (Gradium's documented 24 kHz PCM) resample it to 24 kHz first.
 */
export type GradiumInputFormat = 'pcm_16000' | 'pcm_24000' | 'pcm'

/** Model settings sent as `json_config` in `setup`. */
export interface GradiumSTTJsonConfig {
  /** Expected language (`en`, `fr`, `de`, `es`, `pt`): grounds the model. */
  language?: string
  /** Language to translate to. */
  target_language?: string
  /** Frames of 80 ms the model waits for context before writing text (7–48). */
  delay_in_frames?: number
  /** Sampling temperature (0 greedy, up to 1). */
  temp?: number
  /** Any other setting the model accepts. */
  [key: string]: unknown
}

/** Options of {@link GradiumSTT}: Micdrop's names, plus `baseURL` and the timeouts in ms. */
export interface GradiumSTTOptions {
  /** API key, sent as `x-api-key` (default: the `GRADIUM_API_KEY` environment variable). */
  apiKey?: string
  /**
   * A region's host, `eu` (`eu.api.gradium.ai`) or `us`; default none: `api.gradium.ai`, the host
   * of Gradium's docs. Ignored with `baseURL`.
   */
  region?: GradiumRegion
  /**
   * Origin of the API (default `https://api.gradium.ai`, or the region's). The WebSocket URL is derived
   * from it: `https` → `wss`, `http` → `ws`, then `/api/speech/asr`.
   */
  baseURL?: string
  /** STT model (default `default`). */
  modelName?: string
  /** Audio format announced to Gradium (default `pcm_16000`: no resampling). */
  inputFormat?: GradiumInputFormat
  /** Expected language; shorthand for `jsonConfig.language` (which wins). */
  language?: string
  /** Model settings, sent as `json_config`. */
  jsonConfig?: GradiumSTTJsonConfig
  /** Give up a connection that is not `ready` after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * Give up an utterance whose `flushed` has not come this long after the end of its audio, in ms
   * (default 4000): it fails with `Failed`, never a silent empty transcript.
   */
  transcriptionTimeoutMs?: number
  /**
   * After `flushed`, wait this long for text still on its way before the transcript is final, in
   * ms (default 100; 0 ends the utterance at `flushed`). Pipecat observed text arriving just
   * after `flushed`.
   */
  trailingTextMs?: number
}

export const GRADIUM_STT_DEFAULTS = {
  modelName: 'default',
  inputFormat: 'pcm_16000',
  connectionTimeoutMs: 5000,
  transcriptionTimeoutMs: 4000,
  trailingTextMs: 100,
} as const
