import type { IncomingHttpHeaders } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import type { WebSocket } from 'ws'
import { FakeSocketSession } from '../net/fake-socket-session.js'
import { FakeGradiumTTSRequest } from './FakeGradiumTTSRequest.js'
import type { FakeGradiumSpeechReply, FakeGradiumTTSOptions } from './types.js'
import { parseClientMessage } from '../net/client-message.js'

const RATES: Record<string, number> = { pcm: 48000, pcm_16000: 16000, pcm_24000: 24000 }

/** A message the client sent, parsed (or its text when it was not JSON). */
export type FakeGradiumTTSClientMessage = { type?: string; [key: string]: unknown } | string

/**
 * One WebSocket of the fake Gradium TTS: its requests (multiplexed by `client_req_id`), every
 * message the client sent, and handles to act on it.
 */
export class FakeGradiumTTSSession extends FakeSocketSession {
  /** Every client message, in order. */
  readonly messages: FakeGradiumTTSClientMessage[] = []
  /** Its requests, in the order of their setups. */
  readonly requests: FakeGradiumTTSRequest[] = []
  private readonly replies = new Map<FakeGradiumTTSRequest, FakeGradiumSpeechReply>()
  /** Each request's answer so far: its audio is sent in order, after its ready. */
  private readonly playing = new Map<FakeGradiumTTSRequest, Promise<void>>()
  /** Where each request's audio stands, in seconds. */
  private readonly clock = new Map<FakeGradiumTTSRequest, number>()
  /** Requests whose first-audio delay has passed. */
  private readonly delayed = new Set<FakeGradiumTTSRequest>()

  constructor(
    socket: WebSocket,
    /** The upgrade request's headers (`x-api-key`...). */
    readonly headers: IncomingHttpHeaders,
    private readonly options: FakeGradiumTTSOptions,
    private readonly nextReply: () => FakeGradiumSpeechReply
  ) {
    super(socket)
    socket.on('message', (data) => this.receive(String(data)))
  }

  /** The request of `client_req_id` `id`. */
  request(id: string): FakeGradiumTTSRequest | undefined {
    return this.requests.find((request) => request.id === id)
  }

  /** Sends an in-band error (with `client_req_id` when given), then closes unless `keepOpen`. */
  sendError(message: string, code = 1011, id?: string, keepOpen = false): void {
    this.send({ type: 'error', message, code, ...(id !== undefined ? { client_req_id: id } : {}) })
    if (!keepOpen) this.close(code >= 1000 && code < 5000 ? code : 1011, message.slice(0, 100))
  }

  private receive(text: string): void {
    const message = parseClientMessage<FakeGradiumTTSClientMessage>(text)
    this.messages.push(message)
    if (typeof message !== 'object' || message === null) {
      return this.sendError('Invalid JSON message', 1008)
    }
    const id = message.client_req_id === undefined ? undefined : String(message.client_req_id)
    if (message.type === 'setup') return this.setup(message as FakeGradiumTTSRequest['setup'], id)
    const request = this.requests.findLast((r) => r.id === id)
    // Like Gradium: a request begins with its setup.
    if (!request) return this.sendError('Expected a setup message first', 1008, id)
    if (request.ended) request.afterEnd.push(message)
    if (!request.readySent) request.beforeReady.push(message)
    switch (message.type) {
      case 'text':
        request.texts.push(String(message.text ?? ''))
        return this.then(request, () => this.speakText(request, String(message.text ?? '')))
      case 'end_of_stream':
        request.ended = true
        return this.then(request, async () => {
          if (!this.speaking(request)) return
          request.finished = true
          this.send({ type: 'end_of_stream', ...(id !== undefined ? { client_req_id: id } : {}) })
          if (request.setup.close_ws_on_eos !== false) this.close(1000)
        })
      default:
        return this.sendError(`Unknown message type ${String(message.type)}`, 1008, id)
    }
  }

  private setup(setup: FakeGradiumTTSRequest['setup'], id: string | undefined): void {
    const request = new FakeGradiumTTSRequest(id, setup)
    this.requests.push(request)
    const reply = this.nextReply()
    this.replies.set(request, reply)
    this.clock.set(request, 0)
    if (this.options.apiKey !== undefined && this.headers['x-api-key'] !== this.options.apiKey) {
      return this.sendError('Invalid API key', 1008, id)
    }
    if (reply.kind === 'stall-before-ready') {
      this.playing.set(request, new Promise(() => {}))
      return
    }
    const delay = this.options.readyDelayMs ?? 0
    this.playing.set(
      request,
      (async () => {
        if (delay > 0) await sleep(delay)
        request.readySent = true
        this.send({
          type: 'ready',
          request_id: `fake-${Math.random().toString(36).slice(2)}`,
          model_name: String(setup.model_name ?? 'default'),
          sample_rate: RATES[String(setup.output_format)] ?? 48000,
          frame_size: 3840,
          audio_stream_names: [],
          text_stream_names: [],
          ...(id !== undefined ? { client_req_id: id } : {}),
        })
      })()
    )
  }

  /** Runs `step` after what the request already does. */
  private then(request: FakeGradiumTTSRequest, step: () => Promise<void> | void): void {
    const previous = this.playing.get(request) ?? Promise.resolve()
    this.playing.set(
      request,
      previous.then(() => (this.open ? step() : undefined))
    )
  }

  /** Whether the request is answered with speech (a failure was sent at its first text). */
  private speaking(request: FakeGradiumTTSRequest): boolean {
    const reply = this.replies.get(request)!
    switch (reply.kind) {
      case 'speech':
        return true
      case 'error':
        this.sendError(reply.message, reply.code, request.id, reply.keepOpen)
        this.replies.set(request, { kind: 'stall' })
        return false
      case 'close':
        this.close(reply.code ?? 1000)
        return false
      case 'reset':
        this.reset()
        return false
      default:
        return false
    }
  }

  private async speakText(request: FakeGradiumTTSRequest, text: string): Promise<void> {
    if (!this.speaking(request)) return
    const reply = this.replies.get(request) as Extract<FakeGradiumSpeechReply, { kind: 'speech' }>
    // The delay comes once, before the request's first audio (Gradium's time to first audio).
    if (reply.firstAudioDelayMs && request.audioBytes === 0 && !this.delayed.has(request)) {
      this.delayed.add(request)
      await sleep(reply.firstAudioDelayMs)
    }
    const rate = RATES[String(request.setup.output_format)] ?? 48000
    const msPerWord = reply.msPerWord ?? this.options.msPerWord ?? 60
    const chunks = Math.max(1, this.options.chunksPerWord ?? 2)
    const id = request.id !== undefined ? { client_req_id: request.id } : {}
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const start = this.clock.get(request)!
      const samples = Math.round((rate * msPerWord) / 1000)
      const audio = tone(samples, rate, start)
      const size = Math.ceil(samples / chunks) * 2
      for (let at = 0; at < audio.length; at += size) {
        if (!this.open) return
        const part = audio.subarray(at, at + size)
        request.audioBytes += part.length
        this.send({ type: 'audio', audio: part.toString('base64'), ...id })
      }
      const stop = start + samples / rate
      this.clock.set(request, stop)
      this.send({ type: 'text', text: word, start_s: start, stop_s: stop, stream_id: 0, ...id })
      const pace = this.options.wordDelayMs ?? 2
      await sleep(pace === 'realtime' ? msPerWord : pace)
    }
  }
}

/** A 440 Hz tone at half scale, continuing from `startS`. */
function tone(samples: number, rate: number, startS: number): Buffer {
  const audio = Buffer.alloc(samples * 2)
  const offset = Math.round(startS * rate)
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(
      Math.round(16000 * Math.sin((2 * Math.PI * 440 * (offset + i)) / rate)),
      i * 2
    )
  }
  return audio
}
