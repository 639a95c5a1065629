import type { RecordedRequest } from '../sse-server/types.js'

/**
 * How the fake speech server answers one `POST /v1/audio/speech`. Timings are wall-clock ms on the
 * server side, so a test or a benchmark can script a provider's latency.
 */
export type FakeOpenaiSpeechReply =
  | ({ type: 'audio' } & FakeOpenaiSpeechAudio)
  | {
      type: 'error'
      status: number
      /** JSON body (default: OpenAI's error body for the status). A string is sent as-is. */
      body?: unknown
      /** Value of the `retry-after` header, in seconds. */
      retryAfter?: number
      headers?: Record<string, string>
      /** Wait this long before answering (default 0). */
      delayMs?: number
    }
  /** Destroy the connection before any response is sent. */
  | { type: 'reset' }
  /** Never answer (no status line) until the client gives up. */
  | { type: 'stall' }

/** A 200 answer: PCM16 mono 24 kHz little-endian, streamed in chunks. */
export interface FakeOpenaiSpeechAudio {
  /**
   * The audio to send, PCM16 24 kHz (default: a tone whose length follows the input text, see
   * `msPerCharacter` of the server). A function gets the request.
   */
  audio?: Buffer | ((request: RecordedRequest) => Buffer)
  /** Wait this long before the status line and the first chunk (time to first byte, default 0). */
  firstByteMs?: number
  /** Audio per chunk, in ms (default 40). */
  chunkMs?: number
  /**
   * Wait between two chunks, in ms (default 0: as fast as the socket takes them). `'realtime'`
   * waits each chunk's own duration, like a provider generating at playback speed.
   */
  chunkDelayMs?: number | 'realtime'
  /** Send this much audio (ms) then nothing more, keeping the connection open. */
  stallAfterMs?: number
  /** Send this much audio (ms) then cut the connection (a reset mid-body). */
  resetAfterMs?: number
  headers?: Record<string, string>
}

/** A request the fake speech server received: {@link RecordedRequest} plus what it answered. */
export interface RecordedOpenaiSpeechRequest extends RecordedRequest {
  /** Bytes of audio written to the client so far (PCM16 24 kHz). */
  audioBytes: number
  /** When the first audio byte was written (`performance.now()`), if it was. */
  firstByteAt?: number
  /** When the last audio byte was written and the body ended (`performance.now()`), if it did. */
  endedAt?: number
}
