/** What the fake does with the next context (the next `context_id` it sees). */
export type FakeCartesiaTTSReply =
  /** Speak every piece of text as it comes (a tone per word), then `done` after `continue: false`. */
  | { kind: 'speech' }
  /**
   * An in-band `error` at the context's first message. `withContextId: false` sends it without a
   * `context_id`, as the API does for errors of the connection.
   */
  | {
      kind: 'error'
      message: string
      status?: number
      code?: string
      withContextId?: boolean
    }
  /** Never answer this context. */
  | { kind: 'stall' }
  /** Close the connection (default code 1000) at the context's first message. */
  | { kind: 'close'; code?: number }

/** Options of {@link createFakeCartesiaTTS}. */
export interface FakeCartesiaTTSOptions {
  /** Audio per word of text, in ms (default 80). */
  msPerWord?: number
  /** Size of each `chunk` message, in ms of audio (default 40). */
  chunkMs?: number
  /** Wait between two chunks, in ms (default 2). */
  chunkDelayMs?: number
  /** Wait before a context's first audio, in ms (default 0): Cartesia's time to first audio. */
  firstAudioDelayMs?: number
  /**
   * Go on sending a cancelled context's audio (and its `done`), as a server whose cancel arrives
   * late would: a client must drop it. Default false.
   */
  ignoreCancel?: boolean
}
