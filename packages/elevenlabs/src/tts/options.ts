/** The PCM output formats of the API (signed 16-bit little-endian, mono, at that rate in Hz). */
export type ElevenLabsPcmFormat =
  'pcm_8000' | 'pcm_16000' | 'pcm_22050' | 'pcm_24000' | 'pcm_44100' | 'pcm_48000'

/** Voice settings of a context, as the API names them (each optional; the voice's own otherwise). */
export interface ElevenLabsVoiceSettings {
  /** 0–1: higher is steadier, lower more expressive. */
  stability?: number
  /** 0–1: how closely to keep to the original voice. */
  similarity_boost?: number
  /** 0–1: style exaggeration (adds latency when above 0). */
  style?: number
  /** Boosts the likeness to the original speaker. */
  use_speaker_boost?: boolean
  /** Speaking rate, 1 being the voice's own. */
  speed?: number
}

/** Options of {@link ElevenLabsTTS}: Micdrop's names, plus `baseURL` and the timings in ms. */
export interface ElevenLabsTTSOptions {
  /** API key (default: the `ELEVENLABS_API_KEY` environment variable). */
  apiKey?: string
  /** The voice to speak with. */
  voiceId: string
  /** The model (default `eleven_turbo_v2_5`; also `eleven_flash_v2_5`, `eleven_multilingual_v2`). */
  modelId?: string
  /** ISO 639-1 language code, for the models that take one. */
  language?: string
  /**
   * The PCM format asked of the API (default `pcm_16000`, what openmic plays as it is); another
   * rate is resampled to 16 kHz.
   */
  outputFormat?: ElevenLabsPcmFormat
  /** Voice settings, sent when each `speak()`'s context opens. */
  voiceSettings?: ElevenLabsVoiceSettings
  /**
   * Origin of the API (default `https://api.elevenlabs.io`), optionally with a path prefix. The
   * WebSocket URL is derived from it: `https:` → `wss:`, `http:` → `ws:`.
   */
  baseURL?: string
  /** Give up a connection that is not open after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * Give up a `speak()` whose text has ended but that gets no audio for this long, in ms (default
   * 10 000): it fails with `Failed`.
   */
  stallTimeoutMs?: number
  /**
   * While a `speak()`'s text is idle (the model is slow, a tool runs), tell the API its context
   * is still in use this often, in ms (default 15 000, under the API's 20 s inactivity timeout).
   */
  keepAliveIntervalMs?: number
}

export const ELEVENLABS_TTS_DEFAULTS = {
  modelId: 'eleven_turbo_v2_5',
  outputFormat: 'pcm_16000',
  connectionTimeoutMs: 5000,
  stallTimeoutMs: 10_000,
  keepAliveIntervalMs: 15_000,
} as const

/** How long the API keeps an idle context or connection, in s: its maximum. */
export const INACTIVITY_TIMEOUT_S = 180
