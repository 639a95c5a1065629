/** Options of {@link CartesiaSTT}. */
export interface CartesiaSTTOptions {
  /** Cartesia API key, sent in a header (never in the URL). Default: `process.env.CARTESIA_API_KEY`. */
  apiKey?: string
  /**
   * Origin of the API (default `https://api.cartesia.ai`); the WebSocket URL is derived from it
   * (`https:` → `wss:`, `http:` → `ws:`), so a local fake or a proxy can stand in.
   */
  baseURL?: string
  /** The realtime transcription model (default {@link DEFAULT_CARTESIA_STT_MODEL}). */
  model?: 'ink-whisper' | 'ink-2' | (string & {})
  /** The language spoken, ISO-639-1 (`en`, `fr`...; default: the API's, English). */
  language?: string
  /** Words and phrases to recognize better (Cartesia's `keyterm`). */
  keyterms?: string[]
  /**
   * Time to open the WebSocket (default 5000 ms); past it, the utterances waiting for it fail.
   */
  connectionTimeoutMs?: number
  /**
   * Time from the end of an utterance (its `finalize`) to its `flush_done` (default 4000 ms);
   * past it, the utterance fails, so a stalled provider never hangs a call.
   */
  transcriptionTimeoutMs?: number
}

/** Ink Whisper, Cartesia's multilingual realtime model. */
export const DEFAULT_CARTESIA_STT_MODEL = 'ink-whisper'
