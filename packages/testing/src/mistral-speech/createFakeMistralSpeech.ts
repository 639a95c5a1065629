import { FakeSseServer, type FakeSseServerOptions } from '../sse-server/FakeSseServer.js'
import type { FakePart, FakeResponse } from '../sse-server/types.js'
import { mistralSpeechDialect, speechAudioDelta } from './speech-dialect.js'

/** The sample rate of Mistral's `pcm` speech: float32 little-endian samples, mono. */
export const MISTRAL_SPEECH_SAMPLE_RATE = 24_000

/** Options of a scripted speech stream. */
export interface FakeSpeechOptions {
  /** Into how many `speech.audio.delta` events the audio is cut (default 4). */
  chunks?: number
  /** Wait this long before the first event: the time to first audio (default 0). */
  firstEventDelayMs?: number
  /** Wait this long between two deltas (default 0). */
  chunkDelayMs?: number
  /** After this many deltas, send nothing more and keep the response open (a stall). */
  stallAfter?: number
  /** After this many deltas, cut the connection (a reset mid-stream). */
  resetAfter?: number
}

/**
 * A fake of Mistral's speech API on 127.0.0.1: {@link FakeSseServer} with the streamed
 * `POST /v1/audio/speech` route, scripted with audio (float32 LE 24 kHz samples, like the real
 * `pcm` format), pacing, HTTP errors, stalls and resets, and recording each request's body.
 *
 * @example
 * const fake = await createFakeMistralSpeech()
 * fake.replySpeech(float32Sine(24_000 * 0.5), { firstEventDelayMs: 200, chunkDelayMs: 20 })
 * const client = new Mistral({ apiKey: 'test', serverURL: fake.serverURL })
 * // ... then fake.requests[0].body: { model, input, voice_id, response_format, stream }
 * await fake.close()
 */
export class FakeMistralSpeech extends FakeSseServer {
  /** `http://127.0.0.1:<port>`: pass it as the Mistral client's `serverURL`. */
  get serverURL(): string {
    return this.url
  }

  /**
   * Queues the speech of the next request: `samples` (float32, 24 kHz) sent as base64
   * `speech.audio.delta` events, then `speech.audio.done`.
   */
  replySpeech(samples: Float32Array, options: FakeSpeechOptions = {}): this {
    return this.enqueue(speechResponse(samples, options))
  }

  /** Same as {@link replySpeech} with the audio as raw bytes, cut anywhere (even mid-sample). */
  replyAudioBytes(audio: Uint8Array, options: FakeSpeechOptions = {}): this {
    return this.enqueue(speechResponse(audio, options))
  }

  /** Queues a response that never starts (no status line): the client must give up. */
  replyStall(): this {
    return this.enqueue({ type: 'stall' })
  }

  /** Queues a connection reset before any response. */
  replyReset(): this {
    return this.enqueue({ type: 'reset' })
  }
}

/**
 * The response of a fake speech request: `audio` (float32 samples at 24 kHz, or their bytes) as
 * `speech.audio.delta` events, then `speech.audio.done`. Queue it, or give it as the server's
 * `fallback` to answer every request with speech.
 */
export function speechResponse(
  audio: Float32Array | Uint8Array,
  options: FakeSpeechOptions = {}
): FakeResponse {
  const bytes = new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength)
  const count = Math.max(1, options.chunks ?? 4)
  const size = Math.ceil(bytes.length / count)
  const parts: FakePart[] = []
  if (options.firstEventDelayMs) parts.push({ type: 'delay', ms: options.firstEventDelayMs })
  for (let i = 0, offset = 0; offset < bytes.length || i === 0; i++, offset += size) {
    if (i === options.stallAfter) return { type: 'stream', parts: [...parts, { type: 'stall' }] }
    if (i === options.resetAfter) return { type: 'stream', parts: [...parts, { type: 'reset' }] }
    if (i > 0 && options.chunkDelayMs) parts.push({ type: 'delay', ms: options.chunkDelayMs })
    parts.push({ type: 'event', data: speechAudioDelta(bytes.subarray(offset, offset + size)) })
  }
  if (options.stallAfter !== undefined) parts.push({ type: 'stall' })
  if (options.resetAfter !== undefined) parts.push({ type: 'reset' })
  return { type: 'stream', parts }
}

/**
 * Starts a fake Mistral speech API on 127.0.0.1 (`/v1/audio/speech`, streamed SSE). A request
 * without `input` gets 422 like the real API; a request with nothing scripted gets 418.
 */
export async function createFakeMistralSpeech(
  options: Partial<FakeSseServerOptions> = {}
): Promise<FakeMistralSpeech> {
  const server = new FakeMistralSpeech({
    ...options,
    routes: { '/v1/audio/speech': mistralSpeechDialect, ...options.routes },
  })
  return server.listen()
}

/** `count` float32 samples of a sine (default 440 Hz, amplitude 0.5) at 24 kHz: test speech. */
export function float32Sine(count: number, frequency = 440, amplitude = 0.5): Float32Array {
  const samples = new Float32Array(count)
  for (let i = 0; i < count; i++) {
    samples[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / MISTRAL_SPEECH_SAMPLE_RATE)
  }
  return samples
}
