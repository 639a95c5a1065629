/** Options of {@link OpenaiSTT}. Micdrop's names, plus `baseURL` and the timeouts in ms. */
export interface OpenaiSTTOptions {
  /** API key (default: the `OPENAI_API_KEY` environment variable). */
  apiKey?: string
  /**
   * The API's base URL, as the OpenAI SDK's `baseURL` (default: `OPENAI_BASE_URL`, else
   * `https://api.openai.com/v1`). The WebSocket URL is derived from it: `https` becomes `wss`,
   * `http` becomes `ws`, and `/realtime?intent=transcription` is appended.
   */
  baseURL?: string
  /** Transcription model (default `gpt-4o-transcribe`). */
  model?: string
  /** Language of the speech, ISO-639-1 (default `en`): faster and more accurate than guessing. */
  language?: string
  /**
   * Guidance for the model (default `Transcribe the incoming audio in real time.`). An empty
   * string sends none (`gpt-realtime-whisper` accepts no prompt).
   */
  prompt?: string
  /** Give up a connection that is not open after this long, in ms (default 5000). */
  connectionTimeoutMs?: number
  /**
   * Give up an utterance whose transcript has not come this long after the end of its audio, in
   * ms (default 4000): it fails with `Failed`, never a silent empty transcript.
   */
  transcriptionTimeoutMs?: number
}

export const OPENAI_STT_DEFAULTS = {
  model: 'gpt-4o-transcribe',
  language: 'en',
  prompt: 'Transcribe the incoming audio in real time.',
  baseURL: 'https://api.openai.com/v1',
  connectionTimeoutMs: 5000,
  transcriptionTimeoutMs: 4000,
} as const
