import { DEFAULT_GLADIA_BASE_URL } from './endpoint.js'

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

export function resolveOptions(options: GladiaSTTOptions): ResolvedGladiaSTTOptions {
  return {
    apiKey: options.apiKey ?? process.env.GLADIA_API_KEY ?? '',
    baseURL: options.baseURL ?? DEFAULT_GLADIA_BASE_URL,
    region: options.region,
    connectionTimeoutMs: options.connectionTimeoutMs ?? 5000,
    transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? 4000,
    maxRetry: Math.max(0, options.maxRetry ?? 3),
    retryDelayMs: Math.max(0, options.retryDelayMs ?? 1000),
  }
}

/**
 * The body of `POST /v2/live` (Gladia's `LiveV2InitRequest`): the fields openmic sets or that
 * matter most are typed; any other field of the API is passed through as it is.
 */
export interface GladiaLiveSettings {
  /** `wav/pcm` (default), `wav/alaw` or `wav/ulaw`. */
  encoding?: string
  bit_depth?: number
  sample_rate?: number
  channels?: number
  /** `solaria-1` by default on Gladia's side. */
  model?: string
  /** Seconds of silence that close one of Gladia's utterances (0.01 to 10). */
  endpointing?: number
  /** Seconds after which an utterance is closed even without silence. */
  maximum_duration_without_endpointing?: number
  language_config?: { languages?: string[]; code_switching?: boolean; [key: string]: unknown }
  pre_processing?: Record<string, unknown>
  realtime_processing?: Record<string, unknown>
  post_processing?: Record<string, unknown>
  messages_config?: GladiaMessagesConfig
  custom_metadata?: Record<string, unknown>
  callback?: boolean
  callback_config?: Record<string, unknown>
  [key: string]: unknown
}

/** Which messages the live WebSocket sends (`messages_config`). */
export interface GladiaMessagesConfig {
  /** `transcript` messages with `is_final: false` (they become `Partial`). */
  receive_partial_transcripts?: boolean
  /** `transcript` messages with `is_final: true` (always on: they are the text). */
  receive_final_transcripts?: boolean
  /** `speech_start` / `speech_end`. */
  receive_speech_events?: boolean
  receive_pre_processing_events?: boolean
  /** Translation, named entities, sentiment. */
  receive_realtime_processing_events?: boolean
  /** `post_transcript`, `post_final_transcript`, summarization, chapterization. */
  receive_post_processing_events?: boolean
  /** Acknowledgments of audio and `stop_recording` (always on: resume and in-band errors). */
  receive_acknowledgments?: boolean
  /** Always on. */
  receive_errors?: boolean
  /** `start_session`, `start_recording`, `end_recording`, `end_session` (always on). */
  receive_lifecycle_events?: boolean
}

/** `T` with every field optional, at every depth. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T
