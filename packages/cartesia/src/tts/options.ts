import type { GenerationConfig, ModelSpeed } from '@cartesia/cartesia-js/resources/tts'

/** Options of {@link CartesiaTTS}. */
export interface CartesiaTTSOptions {
  /** Cartesia API key, sent in a header (never in the URL). Default: `process.env.CARTESIA_API_KEY`. */
  apiKey?: string
  /**
   * Origin of the API (default `https://api.cartesia.ai`); the WebSocket URL is derived from it
   * (`https:` → `wss:`, `http:` → `ws:`), so a local fake or a proxy can stand in.
   */
  baseURL?: string
  /** The Sonic model (default {@link DEFAULT_CARTESIA_TTS_MODEL}). */
  modelId?: 'sonic-3' | 'sonic-2' | 'sonic-turbo' | (string & {})
  /** The voice's id (required: Cartesia has no default voice). */
  voiceId: string
  /** The language of the text (`en`, `fr`, `de`, ...; default: the API's, English). */
  language?: string
  /**
   * Speaking speed: a number from 0.6 to 1.5 (sonic-3's `generation_config.speed`), or Micdrop's
   * `'slow' | 'normal' | 'fast'` (the older models' `speed`).
   */
  speed?: number | ModelSpeed
  /** Other sonic-3 generation settings (`emotion`, `volume`), sent with every request. */
  generationConfig?: Omit<GenerationConfig, 'speed'>
  /**
   * How long Cartesia may hold text back to say it better, in ms (`max_buffer_delay_ms`, 0 to
   * 5000; default: the API's).
   */
  maxBufferDelayMs?: number
  /** Ask for word timestamps and emit them as `Words` (default true). */
  wordTimestamps?: boolean
  /** The `Cartesia-Version` header (default {@link CARTESIA_VERSION}). */
  version?: string
  /**
   * Time to open the WebSocket (default 5000 ms); past it, the `speak()` waiting for it fails.
   */
  connectionTimeoutMs?: number
  /**
   * Once the text has ended, how long Cartesia may stay silent (no audio, no `done`) before the
   * `speak()` fails with `Failed` (default 5000 ms), so a stalled provider never hangs a call.
   */
  stallTimeoutMs?: number
}

/** Sonic 3, Cartesia's current model. */
export const DEFAULT_CARTESIA_TTS_MODEL = 'sonic-3'

/** The API version openmic speaks (the official SDK's default for WebSockets). */
export const CARTESIA_VERSION = '2026-08-14'
