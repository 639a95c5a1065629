/** How the fake answers one context (one `speak()`) of the multi-context TTS WebSocket. */
export type FakeTTSContextReply =
  /**
   * Speak its text: a tone of `msPerChar` ms a character (default 20), in audio messages of
   * `charsPerMessage` characters (default 8) with their character alignment, `chunkDelayMs` apart
   * (default 2). Text is generated once `generateAtChars` characters are buffered (default 40, at
   * a blank) or at a flush; `isFinal` follows the close of the context.
   */
  | {
      type: 'speech'
      msPerChar?: number
      charsPerMessage?: number
      chunkDelayMs?: number
      generateAtChars?: number
      /** Wait this long before the context's first audio (the API's time to first byte). */
      firstAudioDelayMs?: number
    }
  /**
   * Answer its first text with an error message `{ message, error, code }` (with `contextId` when
   * `withContextId`), then close the connection with `closeCode` if one is given.
   */
  | {
      type: 'error'
      message: string
      error?: string
      code?: number
      withContextId?: boolean
      closeCode?: number
    }
  /** Never answer it. */
  | { type: 'stall' }

/** Options of {@link createFakeElevenLabsTTS}. */
export interface FakeElevenLabsTTSOptions {
  /** The `xi-api-key` the fake accepts (default: any); another one gets HTTP 401. */
  apiKey?: string
  /** The reply of a context with nothing scripted (default: speech with the defaults). */
  defaultReply?: FakeTTSContextReply
  /**
   * Go on generating a context after its `close_context` (default false): what a client must
   * survive if audio of a cancelled context is already on its way.
   */
  ignoreCloseContext?: boolean
}
