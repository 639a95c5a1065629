/** Options of {@link ElevenLabsSTT}. */
export interface ElevenLabsSTTOptions {
  /** API key (default: the `ELEVENLABS_API_KEY` environment variable). */
  apiKey?: string
  /**
   * Origin of the API (default `https://api.elevenlabs.io`), optionally with a path prefix. The
   * WebSocket URL is derived from it: `https:` → `wss:`, `http:` → `ws:`.
   */
  baseURL?: string
  /** The realtime model (default `scribe_v2_realtime`). */
  modelId?: string
  /**
   * Language of the speech, ISO-639-1 or ISO-639-3 (default: detected by Scribe). Knowing it
   * helps accuracy.
   */
  language?: string
  /** Give up a connection that is not open after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * Give up an utterance whose transcript has not come this long after its commit, in ms
   * (default 4000): it fails with `Failed`.
   */
  transcriptionTimeoutMs?: number
}

export const ELEVENLABS_STT_DEFAULTS = {
  modelId: 'scribe_v2_realtime',
  connectionTimeoutMs: 5000,
  transcriptionTimeoutMs: 4000,
} as const

/**
 * Scribe's error `message_type`s (those the official SDK 2.73 reads; `unaccepted_terms` was
 * spelled `unaccepted_terms_error` before): each fails the utterance at once.
 */
export const SCRIBE_ERROR_TYPES: ReadonlySet<string> = new Set([
  'error',
  'auth_error',
  'quota_exceeded',
  'commit_throttled',
  'transcriber_error',
  'unaccepted_terms',
  'unaccepted_terms_error',
  'rate_limited',
  'input_error',
  'invalid_request',
  'queue_overflow',
  'resource_exhausted',
  'session_time_limit_exceeded',
  'chunk_size_exceeded',
  'insufficient_audio_activity',
])
