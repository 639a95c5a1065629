import { Mistral } from '@mistralai/mistralai'
import { CompleteAcceptEnum } from '@mistralai/mistralai/sdk/speech.js'
import type { ProviderErrorDetails } from '@openmic/core'
import { MICDROP_AUDIO_FORMAT, Resampler, SentenceTTS } from '@openmic/core/provider'
import {
  DEFAULT_MISTRAL_TTS_MODEL,
  DEFAULT_MISTRAL_TTS_VOICE,
  MISTRAL_TTS_SAMPLE_RATE,
  type MistralTTSOptions,
} from './options.js'
import { MistralTTSError, messageOf, toMistralTTSError } from './errors.js'

/**
 * Text-to-speech with Mistral's Voxtral speech API, through the official SDK:
 * `audio.speech.complete({ stream: true, responseFormat: 'pcm' })`, one request per sentence.
 *
 * The answer's text is cut into sentences as it streams in (core's `SentenceTTS`); the next
 * sentence's request starts while the previous one still streams, and audio is emitted in order,
 * so there is no silence between sentences. Mistral streams float32 samples at 24 kHz
 * (`speech.audio.delta` events); they are resampled (band-limited) to PCM16 16 kHz as they arrive.
 * `cancel()` aborts every request in flight. An HTTP error fails the `speak()` with an error naming
 * MistralTTS and the status (e.g. `MistralTTS: HTTP 401 Unauthorized`); the SDK's retries are off.
 *
 * @example
 * const tts = new MistralTTS({ apiKey: process.env.MISTRAL_API_KEY, voiceId: 'en_paul_neutral' })
 * tts.on('Audio', (pcm16k) => speaker.write(pcm16k))
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class MistralTTS extends SentenceTTS {
  /** `mistral_ai`, the provider, for tracing. */
  override get providerName(): string {
    return 'mistral_ai'
  }

  /** The Mistral client requests go through. */
  readonly mistral: Mistral

  constructor(private readonly options: MistralTTSOptions = {}) {
    super(options)
    this.mistral = new Mistral({
      apiKey: options.apiKey ?? process.env.MISTRAL_API_KEY,
      serverURL: options.serverURL,
      httpClient: options.httpClient,
      // A failed sentence fails the speak at once; the server decides what comes next.
      retryConfig: { strategy: 'none' },
    })
  }

  protected async *synthesize(sentence: string, signal: AbortSignal): AsyncIterable<Buffer> {
    const { model, voiceId, refAudio } = this.options
    let events
    try {
      events = await this.mistral.audio.speech.complete(
        {
          model: model ?? DEFAULT_MISTRAL_TTS_MODEL,
          input: sentence,
          ...(refAudio ? { refAudio } : { voiceId: voiceId ?? DEFAULT_MISTRAL_TTS_VOICE }),
          responseFormat: 'pcm',
          stream: true,
        },
        {
          fetchOptions: { signal },
          retries: { strategy: 'none' },
          acceptHeaderOverride: CompleteAcceptEnum.textEventStream,
        }
      )
    } catch (error) {
      throw toMistralTTSError(error)
    }
    const to16k = new Resampler({
      fromRate: MISTRAL_TTS_SAMPLE_RATE,
      toRate: MICDROP_AUDIO_FORMAT.sampleRate,
      inputFormat: 'float32',
    })
    try {
      for await (const event of events) {
        if (event.data.type === 'speech.audio.delta' && 'audioData' in event.data) {
          yield* to16k.writeInSlices(Buffer.from(String(event.data.audioData), 'base64'))
        }
      }
    } catch (error) {
      if (signal.aborted) throw error
      throw new MistralTTSError(`the speech stream broke (${messageOf(error)})`, { cause: error })
    }
    yield to16k.end()
  }

  protected override failure(message: string, details?: ProviderErrorDetails): MistralTTSError {
    return new MistralTTSError(message, details)
  }
}
