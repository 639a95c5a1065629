import type { DeepPartial, GladiaLiveSettings } from './settings.js'

/** Options of {@link GladiaSTT}. */
export interface GladiaSTTOptions {
  /** Gladia API key, sent as `x-gladia-key`. Default: `process.env.GLADIA_API_KEY`. */
  apiKey?: string
  /**
   * Origin of Gladia's API (default `https://api.gladia.io`). Sessions are created with
   * `POST <baseURL>/v2/live`; the WebSocket URL is the one Gladia answers.
   */
  baseURL?: string
  /**
   * The session's settings (the body of `POST /v2/live`: `model`, `endpointing`,
   * `language_config`, `messages_config`...), deep-merged over openmic's: `{ language_config:
   * { languages: ['fr'] } }` changes the language and keeps everything else. The audio format
   * (PCM16 16 kHz mono) and the messages GladiaSTT reads (final transcripts, acknowledgments,
   * errors, lifecycle events) are always on.
   */
  settings?: DeepPartial<GladiaLiveSettings>
  /** Region of the session (`eu-west`, `us-west`), sent as `?region=`. Default: Gladia's. */
  region?: string
  /**
   * Time to create a session and open its WebSocket (default 5000 ms); past it, the utterance
   * waiting for it fails.
   */
  connectionTimeoutMs?: number
  /**
   * Time from the end of an utterance (`stop_recording`) to the end of its transcription
   * (default 4000 ms); past it, the utterance fails, so a stalled provider never hangs a call.
   */
  transcriptionTimeoutMs?: number
  /**
   * Attempts after the first, for a session creation that got a 408, 429, 5xx or a network
   * error, and for a WebSocket that dropped mid-utterance (resumed on the same session).
   * Default 3.
   */
  maxRetry?: number
  /** Wait before each retry (default 1000 ms). */
  retryDelayMs?: number
}

/** The options with their defaults. */
export interface ResolvedGladiaSTTOptions {
  apiKey: string
  baseURL: string
  region?: string
  connectionTimeoutMs: number
  transcriptionTimeoutMs: number
  maxRetry: number
  retryDelayMs: number
}

export const DEFAULT_GLADIA_BASE_URL = 'https://api.gladia.io'

export function resolveOptions(options: GladiaSTTOptions): ResolvedGladiaSTTOptions {
  return {
    apiKey: options.apiKey ?? process.env.GLADIA_API_KEY ?? '',
    baseURL: (options.baseURL ?? DEFAULT_GLADIA_BASE_URL).replace(/\/+$/, ''),
    region: options.region,
    connectionTimeoutMs: options.connectionTimeoutMs ?? 5000,
    transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? 4000,
    maxRetry: Math.max(0, options.maxRetry ?? 3),
    retryDelayMs: Math.max(0, options.retryDelayMs ?? 1000),
  }
}
