import type { ProviderErrorDetails } from '@openmic/core'
import {
  MICDROP_AUDIO_FORMAT,
  errorRetryAfterMs,
  isRetryableError,
  Resampler,
  SentenceTTS,
} from '@openmic/core/provider'
import OpenAI from 'openai'
import type { SpeechCreateParams } from 'openai/resources/audio/speech'
import { setTimeout as sleep } from 'node:timers/promises'
import { readChunks } from './read-chunks.js'
import { OpenaiTTSError, toTTSError } from './errors.js'
import {
  DEFAULT_OPENAI_TTS_MODEL,
  DEFAULT_OPENAI_TTS_VOICE,
  type OpenaiTTSOptions,
} from './options.js'

/** OpenAI's `pcm` format: PCM16 mono little-endian at 24 kHz. */
const OPENAI_PCM_RATE = 24_000
/**
 * Longest wait before retrying a sentence, whatever `retry-after` asks: the listener hears
 * silence meanwhile, and past a second a `FallbackTTS` serves them better.
 */
const MAX_RETRY_WAIT_MS = 1_000

/**
 * Text-to-speech with OpenAI's speech API (`POST /audio/speech`, `response_format: 'pcm'`), through
 * the official `openai` SDK. The answer's text is cut into sentences as it streams in, one request
 * per sentence; the next sentence's request starts while the previous one still streams, and audio
 * is emitted in order, so there is no silence between sentences. Each body is read as it arrives
 * (24 kHz) and resampled to 16 kHz with a band-limited filter.
 *
 * - `cancel()` aborts every request in flight; nothing of the cancelled text is emitted afterwards.
 * - An HTTP error becomes `Failed` with an error naming the status
 *   (`OpenaiTTS: HTTP 401 Incorrect API key provided`, with `status` and `headers`).
 * - A request that fails before its first audio byte with a connection error, HTTP 408, 409, 429
 *   or 5xx is tried again once (`maxRetry`); the SDK's own retries are off.
 * - A sentence whose audio stops coming for `stallTimeoutMs` (default 10 s, retries included)
 *   fails the `speak()`.
 *
 * @example
 * const tts = new OpenaiTTS({ apiKey: process.env.OPENAI_API_KEY, voice: 'coral' })
 * tts.on('Audio', (pcm16k) => speaker.write(pcm16k))
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class OpenaiTTS extends SentenceTTS {
  /** `openai`, the provider, for tracing. */
  override get providerName(): string {
    return 'openai'
  }

  /** The SDK client the TTS uses. */
  readonly openai: OpenAI
  private readonly params: Omit<SpeechCreateParams, 'input'>
  private readonly maxRetry: number

  constructor(options: OpenaiTTSOptions = {}) {
    super(options)
    this.openai =
      options.openai ??
      new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 })
    this.maxRetry = Math.max(0, options.maxRetry ?? 1)
    this.params = {
      model: options.model ?? DEFAULT_OPENAI_TTS_MODEL,
      voice: options.voice ?? DEFAULT_OPENAI_TTS_VOICE,
      response_format: 'pcm',
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      ...(options.speed !== undefined && { speed: options.speed }),
    }
  }

  protected async *synthesize(sentence: string, signal: AbortSignal): AsyncIterable<Buffer> {
    for (let attempt = 0; ; attempt++) {
      let heard = false
      try {
        for await (const audio of this.speakSentence(sentence, signal)) {
          heard = true
          yield audio
        }
        return
      } catch (error) {
        if (signal.aborted) throw error
        const failure = toTTSError(error)
        if (heard || attempt >= this.maxRetry || !isRetryableError(failure)) throw failure
        const wait = Math.min(errorRetryAfterMs(failure), MAX_RETRY_WAIT_MS)
        this.log(`Retrying "${sentence}" in ${wait} ms:`, failure.message)
        if (wait > 0) await sleep(wait, undefined, { signal })
      }
    }
  }

  /** One request for one sentence: its PCM16 16 kHz audio as the body arrives. */
  private async *speakSentence(sentence: string, signal: AbortSignal): AsyncGenerator<Buffer> {
    const response = await this.openai.audio.speech.create(
      { ...this.params, input: sentence },
      { signal, maxRetries: 0 }
    )
    const type = response?.headers.get('content-type') ?? ''
    if (!response?.body || /json|^text\//.test(type)) {
      await response?.body?.cancel().catch(() => {})
      // A server that answers this way (a misconfigured gateway...) would answer it again.
      throw new OpenaiTTSError(
        `HTTP ${response?.status ?? 204} without audio (${type || 'no body'})`,
        { retryable: false }
      )
    }
    const to16k = new Resampler({
      fromRate: OPENAI_PCM_RATE,
      toRate: MICDROP_AUDIO_FORMAT.sampleRate,
    })
    for await (const chunk of readChunks(response.body)) {
      yield* to16k.writeInSlices(chunk)
    }
    const tail = to16k.end()
    if (tail.length > 0) yield tail
  }

  protected override failure(message: string, details?: ProviderErrorDetails): OpenaiTTSError {
    return new OpenaiTTSError(message, details)
  }
}
