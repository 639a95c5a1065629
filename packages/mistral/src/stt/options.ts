/** Options of {@link MistralSTT}. */
export interface MistralSTTOptions {
  /** Mistral API key. Default: `process.env.MISTRAL_API_KEY`. */
  apiKey?: string
  /**
   * Base URL of the API (default `https://api.mistral.ai`), as MistralAgent's. The WebSocket URL
   * is derived from it (`https:` → `wss:`, `http:` → `ws:`).
   */
  serverURL?: string
  /** The realtime transcription model (default {@link DEFAULT_MISTRAL_STT_MODEL}). */
  model?: string
  /**
   * The encoding of the audio given to `transcribe()`, sent in `session.update` (default
   * `pcm_s16le`, what openmic's client sends; also `pcm_s32le`, `pcm_f16le`, `pcm_f32le`,
   * `pcm_mulaw`, `pcm_alaw`). The sample rate is always 16 kHz.
   */
  encoding?: MistralAudioEncoding
  /**
   * How far behind the audio the model may lag to transcribe better, in ms (Mistral's
   * `target_streaming_delay_ms`; default: the API's).
   */
  targetStreamingDelayMs?: number
  /**
   * Time to open the WebSocket and receive `session.created` (default 5000 ms); past it, the
   * utterances waiting for the connection fail.
   */
  connectionTimeoutMs?: number
  /**
   * Time from the end of an utterance (its flush) to its `transcription.done` (default 4000 ms);
   * past it, the utterance fails, so a stalled provider never hangs a call.
   */
  transcriptionTimeoutMs?: number
}

/** The audio encodings Mistral's realtime transcription accepts. */
export type MistralAudioEncoding =
  'pcm_s16le' | 'pcm_s32le' | 'pcm_f16le' | 'pcm_f32le' | 'pcm_mulaw' | 'pcm_alaw'

/** Voxtral Mini realtime transcription, as Micdrop's MistralSTT. */
export const DEFAULT_MISTRAL_STT_MODEL = 'voxtral-mini-transcribe-realtime-2602'
