import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
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

/** The audio openmic sends: PCM16 16 kHz mono, as it arrives. */
const AUDIO = {
  encoding: 'wav/pcm',
  sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
  bit_depth: 16,
  channels: MICDROP_AUDIO_FORMAT.channels,
} as const

/**
 * What a session asks for unless `settings` says otherwise: Micdrop's body, with partials on
 * (they become `Partial`) and the post-processing, pre-processing and realtime add-on messages
 * off (nothing here reads them).
 */
const DEFAULTS: GladiaLiveSettings = {
  messages_config: {
    receive_partial_transcripts: true,
    receive_speech_events: false,
    receive_pre_processing_events: false,
    receive_realtime_processing_events: false,
    receive_post_processing_events: false,
  },
}

/**
 * What GladiaSTT depends on, whatever `settings` says: the audio format it sends, final
 * transcripts (the text), acknowledgments (to resume a dropped connection without resending what
 * Gladia already has), errors (to fail at once) and lifecycle events (`end_recording` tells that
 * the last final transcript was sent).
 */
const REQUIRED: GladiaLiveSettings = {
  ...AUDIO,
  messages_config: {
    receive_final_transcripts: true,
    receive_acknowledgments: true,
    receive_errors: true,
    receive_lifecycle_events: true,
  },
}

/** The body of `POST /v2/live`: the defaults, `settings` deep-merged over them, then what is required. */
export function sessionBody(settings: DeepPartial<GladiaLiveSettings> = {}): GladiaLiveSettings {
  return deepMerge(deepMerge(DEFAULTS, settings), REQUIRED)
}

/**
 * Merges `patch` into `base` at every depth (objects are merged, anything else, arrays included,
 * replaces); `undefined` in `patch` leaves the base value. Neither argument is modified.
 */
export function deepMerge<T extends Record<string, unknown>>(base: T, patch: object): T {
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const current = merged[key]
    merged[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value
  }
  return merged as T
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
