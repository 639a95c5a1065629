import type { RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime'

/** Realtime models known when this was written; any other id works too. */
export type OpenaiRealtimeModelId =
  | 'gpt-realtime'
  | 'gpt-realtime-mini'
  | 'gpt-realtime-2'
  | 'gpt-realtime-2.1'
  | 'gpt-realtime-2.1-mini'
  | (string & {})

/** Options of {@link OpenaiRealtime}. */
export interface OpenaiRealtimeOptions {
  /** API key (default: the `OPENAI_API_KEY` environment variable). */
  apiKey?: string
  /**
   * The API's base URL, as the OpenAI SDK's `baseURL` (default: `OPENAI_BASE_URL`, else
   * `https://api.openai.com/v1`). The WebSocket URL is derived from it: `https` becomes `wss`,
   * `http` becomes `ws`, and `/realtime?model=<model>` is appended.
   */
  baseURL?: string
  /** The speech-to-speech model (default `gpt-realtime`). */
  model?: OpenaiRealtimeModelId
  /** The model's voice (default `marin`); it cannot change once the model has spoken. */
  voice?: string
  /** Speech speed, 0.25 to 1.5 (default: the API's, 1). */
  speed?: number
  /**
   * The model that transcribes the user's audio (default `gpt-4o-mini-transcribe`, the fastest:
   * the call answers once the user's words are transcribed). The realtime model hears the audio
   * itself; the transcript is the conversation's user message.
   */
  transcriptionModel?: string
  /** Language of the user's speech, ISO-639-1 (default `en`): a faster, better transcript. */
  language?: string
  /** Input noise reduction (default `near_field`: a headset or a phone; `null`: none). */
  noiseReduction?: 'near_field' | 'far_field' | null
  /** Give up a connection that is not open after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * More session settings, sent as they are (`max_output_tokens`, `truncation`, `reasoning`,
   * `tracing`...). openmic's own (`type`, `instructions`, `tools`, `audio`, turn detection off)
   * win over them.
   */
  session?: Omit<Partial<RealtimeSessionCreateRequest>, 'type' | 'instructions' | 'tools' | 'audio'>
}

export const OPENAI_REALTIME_DEFAULTS = {
  model: 'gpt-realtime',
  voice: 'marin',
  transcriptionModel: 'gpt-4o-mini-transcribe',
  language: 'en',
  noiseReduction: 'near_field',
  baseURL: 'https://api.openai.com/v1',
  connectionTimeoutMs: 5000,
} as const
