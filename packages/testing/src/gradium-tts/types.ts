/** How the fake TTS answers one request (one `setup` with its `client_req_id`). */
export type FakeGradiumSpeechReply =
  /**
   * Speak: each text message's words get `msPerWord` ms of a tone (in the setup's
   * `output_format`) in `audio` messages, each followed by its `text` timestamp; the client's
   * `end_of_stream` gets one back once the audio is out.
   */
  | {
      kind: 'speech'
      /** Milliseconds of audio per word (default: the fake's `msPerWord`). */
      msPerWord?: number
      /** Wait this long after the first text before the first audio (default 0). */
      firstAudioDelayMs?: number
    }
  /** An in-band `error` with the request's id at its first text (and a close unless `keepOpen`). */
  | { kind: 'error'; message: string; code?: number; keepOpen?: boolean }
  /** `ready`, then nothing at all for this request. */
  | { kind: 'stall' }
  /** No `ready` for this request. */
  | { kind: 'stall-before-ready' }
  /** Close the socket (default 1000) at the request's first text. */
  | { kind: 'close'; code?: number }
  /** Cut the connection at the request's first text. */
  | { kind: 'reset' }

/** Options of {@link createFakeGradiumTTS}. */
export interface FakeGradiumTTSOptions {
  /**
   * The key the fake accepts in `x-api-key` (default: any). Another key gets an in-band `error`
   * 1008 at the first setup, then a close.
   */
  apiKey?: string
  /** Wait this long after a `setup` before its `ready` (default 0). */
  readyDelayMs?: number
  /** Milliseconds of audio per word of a `speech` reply (default 60). */
  msPerWord?: number
  /**
   * Wait between two words' audio, in ms (default 2: the audio streams, not all at once), or
   * `'realtime'`: as long as a word's audio lasts.
   */
  wordDelayMs?: number | 'realtime'
  /** Audio messages per word (default 2). */
  chunksPerWord?: number
}
