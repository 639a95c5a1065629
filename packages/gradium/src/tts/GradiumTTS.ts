import { TTS, type TTSWord } from '@openmic/core'
import { followText } from '@openmic/core/provider'
import type { Readable } from 'node:stream'
import { GradiumError } from '../errors.js'
import { speechURL } from '../endpoint.js'
import { GradiumConnection, inBandError, type GradiumMessage } from '../connection.js'
import { Request } from './Request.js'
import { GRADIUM_TTS_DEFAULTS, OUTPUT_SAMPLE_RATES, type GradiumTTSOptions } from './options.js'

/**
 * Text-to-speech with Gradium's streaming TTS, every `speak()` multiplexed on one WebSocket
 * (`wss://api.gradium.ai/api/speech/tts`, or a region's host; `x-api-key`) under its own `client_req_id`.
 *
 * The socket opens when the instance is created. Each `speak()` sends a `setup` for its request
 * (`close_ws_on_eos: false`, so the socket outlives it), waits for that request's `ready`, then
 * sends its text as it arrives, whole words at a time, and `end_of_stream` when the text ends.
 * Audio messages of the request become `Audio` (PCM16 16 kHz), its `text` timestamps become
 * `Words`, and its `end_of_stream` becomes `AudioEnd`.
 *
 * `cancel()` (and a new `speak()`) costs no new connection: the request is ended with
 * `end_of_stream` and whatever still comes under its id is dropped, so no audio of a cancelled
 * text is ever emitted.
 *
 * What goes wrong becomes `Failed`, naming GradiumTTS: a refused connection (with its HTTP status),
 * an in-band `error` (with its code), a socket that dies once text is on it, no answer for
 * `stallTimeoutMs`. After any close, 1000 included, the next `speak()` opens a new socket; no text is
 * ever sent twice. A malformed server message is logged and ignored.
 *
 * @example
 * const tts = new GradiumTTS({ apiKey: process.env.GRADIUM_API_KEY, voiceId: 'YTpq7expH9539ERJ' })
 * tts.on('Audio', (pcm) => player.write(pcm)) // PCM16 16 kHz mono
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class GradiumTTS extends TTS {
  /** `gradium`, the provider, for tracing. */
  override get providerName(): string {
    return 'gradium'
  }

  private socket?: GradiumConnection
  private current?: Request
  private requestCount = 0
  private destroyed = false
  private readonly sampleRate: number
  private readonly stallTimeoutMs: number

  constructor(private readonly options: GradiumTTSOptions) {
    super()
    this.sampleRate = OUTPUT_SAMPLE_RATES[options.outputFormat ?? GRADIUM_TTS_DEFAULTS.outputFormat]
    this.stallTimeoutMs = options.stallTimeoutMs ?? GRADIUM_TTS_DEFAULTS.stallTimeoutMs
    this.connect()
  }

  speak(text: Readable): void {
    if (this.destroyed) return
    this.cancel()
    const request = new Request(String(++this.requestCount), this.sampleRate)
    this.current = request
    request.detach = followText(text, {
      data: (chunk) => {
        request.append(chunk)
        this.pump(request)
      },
      end: () => {
        request.detach()
        request.end()
        this.pump(request)
      },
      error: (error) =>
        this.fail(
          request,
          new GradiumError(`the text stream broke: ${String(error)}`, {
            provider: 'GradiumTTS',
            cause: error,
          })
        ),
    })
  }

  cancel(): void {
    const request = this.current
    if (!request) return
    this.current = undefined
    this.abandon(request)
    this.log(`Cancelled request ${request.id}`)
  }

  override destroy(): void {
    this.destroyed = true
    this.cancel()
    this.socket?.dispose()
    this.socket = undefined
    super.destroy()
  }

  /** Moves `request` on: opens the socket, sends its setup, then its text and end. */
  private pump(request: Request): void {
    if (this.destroyed || request !== this.current) return
    if (!this.socket) this.connect()
    const socket = this.socket
    if (!socket?.isReady) return
    if (!request.socket) {
      request.socket = socket
      socket.send(this.setup(request.id))
      this.expectAnswer(request)
    }
    if (!request.ready || request.socket !== socket) return
    const text = request.takeText()
    if (text.length > 0) {
      request.textSent = true
      socket.send({ type: 'text', text, client_req_id: request.id })
    }
    if (request.textEnded && !request.eosSent) {
      request.eosSent = true
      socket.send({ type: 'end_of_stream', client_req_id: request.id })
      this.expectAnswer(request)
    }
  }

  private setup(id: string): object {
    const { options } = this
    return {
      type: 'setup',
      model_name: options.modelName ?? GRADIUM_TTS_DEFAULTS.modelName,
      voice_id: options.voiceId,
      output_format: options.outputFormat ?? GRADIUM_TTS_DEFAULTS.outputFormat,
      // Gradium's own clients send the settings as a JSON string.
      ...(options.jsonConfig ? { json_config: JSON.stringify(options.jsonConfig) } : {}),
      client_req_id: id,
      close_ws_on_eos: false,
    }
  }

  private connect(): void {
    if (this.destroyed) return
    const { options } = this
    const socket: GradiumConnection = new GradiumConnection(
      {
        provider: 'GradiumTTS',
        url: speechURL('tts', options.baseURL, options.region),
        apiKey: options.apiKey ?? process.env.GRADIUM_API_KEY ?? '',
        connectionTimeoutMs:
          options.connectionTimeoutMs ?? GRADIUM_TTS_DEFAULTS.connectionTimeoutMs,
      },
      {
        // Readiness is per request (each setup gets its ready): the open socket is usable.
        onOpen: () => {
          socket.markReady()
          if (this.current) this.pump(this.current)
        },
        onMessage: (message) => this.receive(socket, message),
        onClosed: (error) => this.closed(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    this.socket = socket
  }

  private receive(socket: GradiumConnection, message: GradiumMessage): void {
    const request = this.requestOf(socket, message)
    if (!request) {
      // Late messages of a cancelled or finished request land here, and are dropped.
      if (message.type === 'error' && message.client_req_id === undefined) {
        this.dropSocket(socket, inBandError('GradiumTTS', message))
      }
      return
    }
    switch (message.type) {
      case 'ready':
        request.ready = true
        request.clearTimer()
        return this.pump(request)
      case 'audio': {
        if (typeof message.audio !== 'string') return
        if (request.eosSent) this.expectAnswer(request)
        const audio = request.convert(Buffer.from(message.audio, 'base64'))
        if (audio.length > 0) this.emit('Audio', audio)
        return
      }
      case 'text': {
        if (request.eosSent) this.expectAnswer(request)
        const word = wordOf(message)
        if (word) this.emit('Words', [word])
        return
      }
      case 'end_of_stream': {
        const tail = request.tail()
        this.finish(request)
        if (tail.length > 0) this.emit('Audio', tail)
        this.emit('AudioEnd')
        return
      }
      case 'error':
        if (message.client_req_id === undefined) {
          return this.dropSocket(socket, inBandError('GradiumTTS', message))
        }
        return this.fail(request, inBandError('GradiumTTS', message))
      default:
        // need_more_text and anything new: not needed.
        return
    }
  }

  /**
   * The current request a message is about: the one its `client_req_id` names, or, for a message
   * without one, the current request on that socket.
   */
  private requestOf(socket: GradiumConnection, message: GradiumMessage): Request | undefined {
    const request = this.current
    if (!request || request.socket !== socket) return undefined
    const id = message.client_req_id
    if (id === undefined || id === null) return request
    return String(id) === request.id ? request : undefined
  }

  /** Arms the stall timer of a request Gradium owes an answer. */
  private expectAnswer(request: Request): void {
    request.clearTimer()
    request.timer = setTimeout(() => {
      const socket = request.socket
      this.fail(
        request,
        new GradiumError(`no answer for ${this.stallTimeoutMs} ms (stalled)`, {
          provider: 'GradiumTTS',
        })
      )
      // A socket that stopped answering is not trusted with the next speak().
      if (socket) this.dropSocket(socket)
    }, this.stallTimeoutMs)
  }

  /** The socket is gone: its request fails once text went to it, else moves to a new socket. */
  private closed(socket: GradiumConnection, error: GradiumError): void {
    if (this.destroyed) return
    if (this.socket === socket) this.socket = undefined
    const request = this.current
    if (!request) return this.log('Socket closed:', error.message)
    const waitingForThis = request.socket === socket || (!request.socket && !socket.wasReady)
    if (!waitingForThis) return
    if (request.textSent || !socket.wasReady) return this.fail(request, error)
    // Only its setup was on that socket: nothing is sent twice by setting it up again.
    request.socket = undefined
    request.ready = false
    request.clearTimer()
    this.pump(request)
  }

  /** Closes a socket and fails what depended on it. */
  private dropSocket(socket: GradiumConnection, error?: GradiumError): void {
    socket.dispose()
    if (this.socket === socket) this.socket = undefined
    const request = this.current
    if (request && request.socket === socket) {
      this.fail(
        request,
        error ?? new GradiumError('connection dropped', { provider: 'GradiumTTS' })
      )
    }
  }

  private fail(request: Request, error: GradiumError): void {
    if (request !== this.current) return
    this.current = undefined
    this.abandon(request)
    if (!this.destroyed) this.emit('Failed', error)
  }

  private finish(request: Request): void {
    if (request === this.current) this.current = undefined
    request.detach()
    request.clearTimer()
  }

  /** Lets a request go: Gradium is told it is over, and nothing of it is emitted any more. */
  private abandon(request: Request): void {
    request.detach()
    request.clearTimer()
    if (request.socket?.alive && !request.eosSent) {
      request.eosSent = true
      request.socket.send({ type: 'end_of_stream', client_req_id: request.id })
    }
  }
}

/** A `Words` timing of a `text` message (`start_s`, `stop_s` from the start of the request's audio). */
function wordOf(message: GradiumMessage): TTSWord | undefined {
  const { text, start_s: start, stop_s: stop } = message
  if (typeof text !== 'string' || typeof start !== 'number') return undefined
  const startMs = Math.round(start * 1000)
  const endMs = typeof stop === 'number' ? Math.max(startMs, Math.round(stop * 1000)) : startMs
  return { word: text.trim(), startMs, endMs }
}
