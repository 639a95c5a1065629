import { TTS } from '@openmic/core'
import {
  MICDROP_AUDIO_FORMAT,
  Pcm16Aligner,
  Resampler,
  followText,
  webSocketURL,
} from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { ElevenLabsConnection } from '../connection.js'
import { ELEVENLABS_BASE_URL } from '../endpoint.js'
import { WordAligner } from './alignment.js'
import { ElevenLabsTTSError } from './errors.js'
import {
  ELEVENLABS_TTS_DEFAULTS,
  INACTIVITY_TIMEOUT_S,
  type ElevenLabsTTSOptions,
  type ElevenLabsVoiceSettings,
} from './options.js'

/** A connection of ElevenLabsTTS (its errors are ElevenLabsTTSErrors). */
type ElevenLabsTTSConnection = ElevenLabsConnection<ElevenLabsTTSError>

/** One `speak()`: its context on the connection, and where its text and audio stand. */
interface Speech {
  readonly contextId: string
  readonly socket: ElevenLabsTTSConnection
  /** Text received but not sent: what follows the last blank (a word may go on). */
  pending: string
  /** Some text that is not blank was sent. */
  spoke: boolean
  /** The text has ended: it was flushed and the context closed; `isFinal` ends the speech. */
  flushed: boolean
  /** Ms of audio of this context already emitted: where the next message's times start. */
  audioMs: number
  /** Keeps the audio in whole samples across messages. */
  readonly aligner: Pcm16Aligner
  readonly resampler: Resampler | undefined
  readonly words: WordAligner
  stallTimer?: NodeJS.Timeout
  keepAliveTimer?: NodeJS.Timeout
  detach(): void
}

/**
 * Text-to-speech with ElevenLabs' multi-context WebSocket
 * (`/v1/text-to-speech/{voice_id}/multi-stream-input`): one connection per instance, one context
 * per `speak()`.
 *
 * - The connection opens when the instance is created, so the first answer does not wait for a
 *   handshake. Each `speak()` opens its own context (with `voiceSettings`); its text is sent as it
 *   streams in, whole words at a time; at its end the rest is flushed and the context closed, and
 *   the API's `isFinal` for it gives `AudioEnd`. While the text is idle a keep-alive tells the API
 *   the context is still in use.
 * - `cancel()` (and a new `speak()`) closes the context (`close_context`), so the API stops
 *   generating it. Nothing of a cancelled context is ever emitted, whatever still arrives for it:
 *   audio is routed by context id.
 * - The character alignment of the audio becomes `Words`, timed from the start of the `speak()`'s
 *   audio.
 * - Any error becomes `Failed`, with an {@link ElevenLabsTTSError} naming the status or the API's
 *   error: a refused connection (`ElevenLabsTTS: HTTP 401 ...`), an in-band error message, a
 *   connection that ends mid-speech, no connection within `connectionTimeoutMs`, no audio for
 *   `stallTimeoutMs` once the text has ended.
 * - After any close (1000 included) the next `speak()` opens a new connection. No text is ever
 *   sent twice: what went to a connection that died is not replayed. A malformed server message
 *   is logged and ignored.
 * - `destroy()` closes the connection and clears every timer; nothing is emitted afterwards.
 *
 * @example
 * const tts = new ElevenLabsTTS({ apiKey: process.env.ELEVENLABS_API_KEY, voiceId: 'JBFqnCBsd6RMkjVDRZzb' })
 * tts.on('Audio', (pcm16k) => speaker.write(pcm16k))
 * tts.on('Words', (words) => console.log(words))
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class ElevenLabsTTS extends TTS {
  /** `elevenlabs`, the provider, for tracing. */
  override get providerName(): string {
    return 'elevenlabs'
  }

  private readonly url: string
  private readonly apiKey: string
  private readonly voiceSettings: ElevenLabsVoiceSettings | undefined
  private readonly sourceRate: number
  private readonly connectionTimeoutMs: number
  private readonly stallTimeoutMs: number
  private readonly keepAliveIntervalMs: number
  private socket: ElevenLabsTTSConnection | undefined
  private speech: Speech | undefined
  private contexts = 0
  private destroyed = false

  constructor(options: ElevenLabsTTSOptions) {
    super()
    const apiKey = options.apiKey ?? process.env.ELEVENLABS_API_KEY
    if (!apiKey) {
      throw new ElevenLabsTTSError('no API key: pass `apiKey` or set ELEVENLABS_API_KEY')
    }
    if (!options.voiceId) throw new ElevenLabsTTSError('no `voiceId`')
    this.apiKey = apiKey
    const defaults = ELEVENLABS_TTS_DEFAULTS
    const outputFormat = options.outputFormat ?? defaults.outputFormat
    this.sourceRate = Number(outputFormat.slice('pcm_'.length))
    if (!/^pcm_\d+$/.test(outputFormat) || !(this.sourceRate > 0)) {
      throw new ElevenLabsTTSError(
        `outputFormat must be a PCM format (pcm_16000...), not ${outputFormat}`
      )
    }
    this.url = webSocketURL(
      options.baseURL ?? ELEVENLABS_BASE_URL,
      `/v1/text-to-speech/${encodeURIComponent(options.voiceId)}/multi-stream-input`,
      {
        model_id: options.modelId ?? defaults.modelId,
        output_format: outputFormat,
        language_code: options.language,
        inactivity_timeout: INACTIVITY_TIMEOUT_S,
      }
    )
    this.voiceSettings = options.voiceSettings
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? defaults.connectionTimeoutMs
    this.stallTimeoutMs = options.stallTimeoutMs ?? defaults.stallTimeoutMs
    this.keepAliveIntervalMs = options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs
    // Opened now, so the first answer finds it ready.
    this.socket = this.connect()
  }

  speak(text: Readable): void {
    this.stop()
    if (this.destroyed) {
      text.resume()
      return
    }
    if (!this.socket || this.socket.isOver) this.socket = this.connect()
    const speech: Speech = {
      contextId: `openmic_${++this.contexts}`,
      socket: this.socket,
      pending: '',
      spoke: false,
      flushed: false,
      audioMs: 0,
      aligner: new Pcm16Aligner(),
      resampler:
        this.sourceRate === MICDROP_AUDIO_FORMAT.sampleRate
          ? undefined
          : new Resampler({ fromRate: this.sourceRate, toRate: MICDROP_AUDIO_FORMAT.sampleRate }),
      words: new WordAligner(),
      detach: () => {},
    }
    this.speech = speech
    speech.socket.send({
      text: ' ',
      context_id: speech.contextId,
      ...(this.voiceSettings ? { voice_settings: this.voiceSettings } : {}),
    })
    this.keepAlive(speech)
    speech.detach = followText(text, {
      data: (chunk) => this.textIn(speech, chunk),
      end: () => this.textEnd(speech),
      error: (error) =>
        this.fail(
          speech,
          new ElevenLabsTTSError(`the text stream failed: ${messageOf(error)}`, { cause: error })
        ),
    })
  }

  cancel(): void {
    if (this.speech) this.log('Cancel')
    this.stop()
  }

  override destroy(): void {
    this.destroyed = true
    this.stop()
    this.socket?.dispose()
    this.socket = undefined
    super.destroy()
  }

  private connect(): ElevenLabsTTSConnection {
    const socket: ElevenLabsTTSConnection = new ElevenLabsConnection(
      {
        url: this.url,
        apiKey: this.apiKey,
        connectionTimeoutMs: this.connectionTimeoutMs,
        error: (message, details) => new ElevenLabsTTSError(message, details),
      },
      {
        onMessage: (message) => this.handle(socket, message),
        onClosed: (error) => this.ended(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    return socket
  }

  /** Sends the text's whole words (blanks collapsed), keeping a word that may go on. */
  private textIn(speech: Speech, text: string): void {
    if (this.speech !== speech) return
    speech.pending += text
    const lastBlank = speech.pending.search(/\s(?=\S*$)/)
    if (lastBlank < 0) return
    const words = speech.pending.slice(0, lastBlank + 1)
    speech.pending = speech.pending.slice(lastBlank + 1)
    // A finished sentence is flushed, so that its audio starts without waiting for more text
    // (the API's advice); the context stays open for the next one.
    const sentenceEnd = lastSentenceEnd(words)
    if (sentenceEnd > 0) this.sendText(speech, words.slice(0, sentenceEnd), true)
    this.sendText(speech, words.slice(sentenceEnd))
  }

  private textEnd(speech: Speech): void {
    if (this.speech !== speech) return
    speech.detach()
    const rest = speech.pending
    speech.pending = ''
    if (!speech.spoke && rest.trim() === '') {
      // Nothing to say: the context is closed without asking the API for anything.
      speech.socket.send({ context_id: speech.contextId, close_context: true })
      this.clear(speech)
      this.emit('AudioEnd')
      return
    }
    this.sendText(speech, `${rest} `, true)
    speech.socket.send({ context_id: speech.contextId, close_context: true })
    speech.flushed = true
    clearInterval(speech.keepAliveTimer)
    this.watchStall(speech)
  }

  private sendText(speech: Speech, text: string, flush = false): void {
    const normalized = text.replace(/\s+/g, ' ')
    const blank = normalized.trim() === ''
    if (blank && (!flush || !speech.spoke)) return
    if (!blank) speech.spoke = true
    speech.socket.send({
      text: blank ? '' : normalized.replace(/^ /, ''),
      context_id: speech.contextId,
      ...(flush ? { flush: true } : {}),
    })
    this.keepAlive(speech)
  }

  /** (Re)starts the keep-alive of a context whose text is still coming. */
  private keepAlive(speech: Speech): void {
    clearInterval(speech.keepAliveTimer)
    if (speech.flushed) return
    speech.keepAliveTimer = setInterval(() => {
      if (this.speech === speech) speech.socket.send({ text: '', context_id: speech.contextId })
    }, this.keepAliveIntervalMs)
  }

  private watchStall(speech: Speech): void {
    clearTimeout(speech.stallTimer)
    speech.stallTimer = setTimeout(() => {
      this.fail(speech, new ElevenLabsTTSError(`no audio for ${this.stallTimeoutMs} ms`))
    }, this.stallTimeoutMs)
  }

  private handle(socket: ElevenLabsTTSConnection, message: Record<string, unknown>): void {
    if (this.destroyed) return
    const contextId = message.contextId ?? message.context_id
    const speech = this.speech
    const mine = speech !== undefined && speech.socket === socket && contextId === speech.contextId
    if (
      typeof message.error === 'string' ||
      (typeof message.message === 'string' && !('audio' in message))
    ) {
      const error = inBandError(message)
      this.log('Error message:', error.message)
      if (contextId !== undefined && !mine) return // about a context already let go of
      if (speech?.socket === socket) this.fail(speech, error)
      // The connection's state after an error is unknown (the API closes it after some): the next
      // speak() opens a new one.
      socket.end(error)
      return
    }
    // Whatever arrives for a context that was cancelled or replaced is dropped here.
    if (!mine) return
    if (typeof message.audio === 'string' && message.audio.length > 0) {
      this.audioIn(speech, Buffer.from(message.audio, 'base64'), message.alignment)
    }
    if (message.isFinal === true || message.is_final === true) this.finalIn(speech)
  }

  private audioIn(speech: Speech, audio: Buffer, alignment: unknown): void {
    if (speech.flushed) this.watchStall(speech)
    const offsetMs = speech.audioMs
    speech.audioMs += (audio.length / 2 / this.sourceRate) * 1000
    const pcm = speech.resampler ? speech.resampler.write(audio) : audio
    this.emitAudio(speech, pcm)
    if (this.speech !== speech) return // a listener cancelled it
    const words = speech.words.push(alignment, offsetMs)
    if (words.length > 0) this.emit('Words', words)
  }

  private finalIn(speech: Speech): void {
    // Before the end of the text it can only be about a sentence's flush: the speech goes on (a
    // context the API closed on its own is caught by the stall timeout once the text ends).
    if (!speech.flushed) return this.log('Ignored an isFinal before the end of the text')
    if (speech.resampler) this.emitAudio(speech, speech.resampler.end())
    if (this.speech !== speech) return
    const words = speech.words.end()
    if (words.length > 0) this.emit('Words', words)
    if (this.speech !== speech) return
    this.clear(speech)
    this.log('AudioEnd')
    this.emit('AudioEnd')
  }

  /** Emits PCM16 in whole samples: a byte split between two messages waits for the next one. */
  private emitAudio(speech: Speech, chunk: Buffer): void {
    const audio = speech.aligner.write(chunk)
    if (audio.length > 0) this.emit('Audio', audio)
  }

  /** The connection is over: the speech on it fails; the next speak() opens a new one. */
  private ended(socket: ElevenLabsTTSConnection, error: ElevenLabsTTSError): void {
    if (this.socket === socket) this.socket = undefined
    this.log('ElevenLabsTTSConnection ended:', error.message)
    const speech = this.speech
    if (this.destroyed || speech?.socket !== socket) return
    this.fail(speech, error)
  }

  private fail(speech: Speech, error: ElevenLabsTTSError): void {
    if (this.speech !== speech || this.destroyed) return
    // The API stops generating it; nothing more of it is emitted.
    speech.socket.send({ context_id: speech.contextId, close_context: true })
    this.clear(speech)
    this.log('Failed:', error.message)
    this.emit('Failed', error)
  }

  /** Lets go of the current speech, closing its context if it is still open. */
  private stop(): void {
    const speech = this.speech
    if (!speech) return
    speech.socket.send({ context_id: speech.contextId, close_context: true })
    this.clear(speech)
  }

  private clear(speech: Speech): void {
    if (this.speech === speech) this.speech = undefined
    speech.detach()
    clearTimeout(speech.stallTimer)
    clearInterval(speech.keepAliveTimer)
  }
}

/** Where the text's last finished sentence ends (after its blank), 0 when none does. */
function lastSentenceEnd(text: string): number {
  let end = 0
  for (const match of text.matchAll(/[.!?…]+["')\]]*\s+/g)) end = match.index + match[0].length
  return end
}

function inBandError(message: Record<string, unknown>): ElevenLabsTTSError {
  const name = typeof message.error === 'string' ? message.error : undefined
  const text = typeof message.message === 'string' ? message.message : undefined
  const code = typeof message.code === 'number' ? message.code : undefined
  const parts = [name, text].filter(Boolean).join(': ') || JSON.stringify(message).slice(0, 200)
  return new ElevenLabsTTSError(code !== undefined ? `${parts} (code ${code})` : parts, {
    code: name,
    closeCode: code,
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
