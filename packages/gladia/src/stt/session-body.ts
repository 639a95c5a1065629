import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import type { DeepPartial, GladiaLiveSettings } from './options.js'

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
