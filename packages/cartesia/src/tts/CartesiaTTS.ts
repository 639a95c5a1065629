import type { WebsocketResponse } from '@cartesia/cartesia-js/resources/tts'
import { TTS, type ProviderErrorDetails, type TTSWord } from '@openmic/core'
import { Pcm16Aligner, webSocketURL } from '@openmic/core/provider'
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { CARTESIA_BASE_URL } from '../endpoint.js'
import { inBandError, type CartesiaErrorMessage } from '../in-band-error.js'
import { CartesiaTTSError } from './errors.js'
import { generationRequest } from './generation-request.js'
import { CARTESIA_VERSION, type CartesiaTTSOptions } from './options.js'
import { CartesiaTTSConnection } from './tts-connection.js'
import { WordBuffer } from './word-buffer.js'

/** One `speak()`: its Cartesia context and where it stands. */
interface Speech {
  readonly contextId: string
  readonly socket: CartesiaTTSConnection
  readonly words: WordBuffer
  readonly audio: Pcm16Aligner
  /** Something was sent for this context (so there is something to cancel). */
  sent: boolean
  /** The text ended and `continue: false` was sent. */
  ended: boolean
  stallTimer?: ReturnType<typeof setTimeout>
  stopFollowing(): void
}

/**
 * Text-to-speech with Cartesia's Sonic over its TTS WebSocket (`wss://api.cartesia.ai/tts/websocket`),
 * one connection per instance, opened when it is created so the first answer finds it warm.
 *
 * Each `speak()` is one Cartesia context: its text is sent as it streams in, cut at word ends
 * (`continue: true`), and its end closes the context (`continue: false`). Audio comes back as
 * PCM16 16 kHz, and word timestamps (`add_timestamps`) become `Words`, counted from the start of
 * that `speak()`'s audio. `done` gives `AudioEnd`. `cancel()` (or a new `speak()`) cancels the
 * context on the socket (`cancel: true`) and from then on drops every message of that context, so
 * no audio of a cancelled text is ever emitted, whatever still arrives.
 *
 * The key and API version are headers, never in the URL. What goes wrong becomes `Failed` at once,
 * naming CartesiaTTS and the status or code: a refused connection (`CartesiaTTS: 401 Invalid API
 * key`), an in-band `error` (with or without a `context_id`: one without fails the current
 * `speak()` too), a connection lost mid-speech, silence `stallTimeoutMs` after the text ended.
 * After any close (1000 included) the next `speak()` opens a new connection; text is never sent
 * twice. A malformed server message is logged and ignored.
 *
 * @example
 * const tts = new CartesiaTTS({ apiKey: process.env.CARTESIA_API_KEY, voiceId: '...' })
 * tts.on('Audio', (pcm16k) => speaker.write(pcm16k))
 * tts.on('Words', (words) => console.log(words))
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class CartesiaTTS extends TTS {
  /** `cartesia`, the provider, for tracing. */
  override get providerName(): string {
    return 'cartesia'
  }

  private socket?: CartesiaTTSConnection
  private speech?: Speech
  private destroyed = false
  private readonly stallTimeoutMs: number

  constructor(private readonly options: CartesiaTTSOptions) {
    super()
    this.stallTimeoutMs = options.stallTimeoutMs ?? 5000
    this.connect()
  }

  speak(text: Readable): void {
    if (this.destroyed) return
    this.cancel()
    if (!this.socket?.usable) this.connect()
    const socket = this.socket!
    const speech: Speech = {
      contextId: randomUUID(),
      socket,
      words: new WordBuffer(),
      audio: new Pcm16Aligner(),
      sent: false,
      ended: false,
      stopFollowing: () => {
        text.off('data', onData)
        text.off('end', onEnd)
        text.off('error', onError)
      },
    }
    const onData = (chunk: Buffer | string) => {
      const words = speech.words.push(String(chunk))
      // Blanks alone say nothing (and an empty text then needs no context at all).
      if (words.trim()) this.send(speech, words, true)
    }
    const onEnd = () => {
      speech.stopFollowing()
      speech.ended = true
      const rest = speech.words.end()
      // Nothing to say: no context at all.
      if (!speech.sent && rest.trim() === '') {
        this.release(speech)
        return void this.emit('AudioEnd')
      }
      this.send(speech, rest, false)
      this.armStallTimer(speech)
    }
    const onError = (error: unknown) =>
      this.fail(
        speech,
        new CartesiaTTSError(`the text stream broke (${String(error)})`, { cause: error })
      )
    this.speech = speech
    text.on('data', onData)
    text.once('end', onEnd)
    text.once('error', onError)
  }

  cancel(): void {
    const speech = this.speech
    if (!speech) return
    this.release(speech)
    // Cartesia stops generating; what it already sent for this context is dropped on arrival.
    if (speech.sent) speech.socket.send({ context_id: speech.contextId, cancel: true })
  }

  override destroy(): void {
    this.destroyed = true
    super.destroy()
    this.socket?.close()
    this.socket = undefined
  }

  private connect(): void {
    if (this.destroyed) return
    const { options } = this
    const socket: CartesiaTTSConnection = new CartesiaTTSConnection(
      {
        url: webSocketURL(options.baseURL ?? CARTESIA_BASE_URL, '/tts/websocket'),
        apiKey: options.apiKey ?? process.env.CARTESIA_API_KEY ?? '',
        version: options.version ?? CARTESIA_VERSION,
        connectionTimeoutMs: options.connectionTimeoutMs ?? 5000,
      },
      {
        onMessage: (event) => this.receive(socket, event),
        onClosed: (error) => {
          if (this.socket === socket) this.socket = undefined
          const speech = this.speech
          // A speak() whose text went to this socket cannot go on elsewhere without sending
          // that text twice: it fails. The next speak() opens a new connection.
          if (speech?.socket === socket) this.fail(speech, error)
          else this.log('Connection ended:', error.message)
        },
        log: (...message) => this.log(...message),
      }
    )
    this.socket = socket
  }

  private send(speech: Speech, transcript: string, more: boolean): void {
    if (this.speech !== speech) return
    speech.sent = true
    speech.socket.send(generationRequest(this.options, speech.contextId, transcript, more))
  }

  private receive(socket: CartesiaTTSConnection, event: WebsocketResponse): void {
    const speech = this.speech
    const contextId = (event as { context_id?: unknown }).context_id
    if (event.type === 'error') {
      // An error without a context belongs to the connection: the current speak() fails too.
      if (speech?.socket === socket && (!contextId || contextId === speech.contextId))
        return this.fail(speech, inBandError(event as CartesiaErrorMessage, ttsError))
      return this.log('Cartesia error of no current context:', JSON.stringify(event))
    }
    // Messages of a cancelled or replaced context are dropped here, whatever they carry.
    if (!speech || speech.socket !== socket || contextId !== speech.contextId) return
    switch (event.type) {
      case 'chunk': {
        this.armStallTimer(speech)
        if (typeof event.data !== 'string') return
        const audio = speech.audio.write(Buffer.from(event.data, 'base64'))
        if (audio.length > 0) this.emit('Audio', audio)
        return
      }
      case 'timestamps': {
        this.armStallTimer(speech)
        const words = wordsOf(event.word_timestamps)
        if (words.length > 0) this.emit('Words', words)
        return
      }
      case 'done':
        this.release(speech)
        return void this.emit('AudioEnd')
      default:
        // flush_done, phoneme_timestamps: not needed.
        return
    }
  }

  /** Once the text ended, Cartesia must say something within `stallTimeoutMs`, again and again. */
  private armStallTimer(speech: Speech): void {
    if (!speech.ended || this.speech !== speech) return
    clearTimeout(speech.stallTimer)
    speech.stallTimer = setTimeout(
      () =>
        this.fail(
          speech,
          new CartesiaTTSError(`no audio ${this.stallTimeoutMs} ms after the text ended (stalled)`)
        ),
      this.stallTimeoutMs
    )
  }

  private fail(speech: Speech, error: CartesiaTTSError): void {
    if (this.speech !== speech) return
    this.release(speech)
    if (speech.sent && speech.socket.usable)
      speech.socket.send({ context_id: speech.contextId, cancel: true })
    if (!this.destroyed) this.emit('Failed', error)
  }

  private release(speech: Speech): void {
    if (this.speech === speech) this.speech = undefined
    clearTimeout(speech.stallTimer)
    speech.stopFollowing()
  }
}

/** Cartesia's word timestamps (seconds from the start of the context's audio) as `TTSWord`s. */
function wordsOf(
  timestamps: { words?: unknown; start?: unknown; end?: unknown } | null | undefined
) {
  const { words, start, end } = timestamps ?? {}
  if (!Array.isArray(words) || !Array.isArray(start) || !Array.isArray(end)) return []
  const result: TTSWord[] = []
  words.forEach((word, i) => {
    const from = start[i]
    const to = end[i]
    if (typeof word === 'string' && typeof from === 'number' && typeof to === 'number')
      result.push({ word, startMs: Math.round(from * 1000), endMs: Math.round(to * 1000) })
  })
  return result
}

function ttsError(message: string, details: ProviderErrorDetails): CartesiaTTSError {
  return new CartesiaTTSError(message, details)
}
