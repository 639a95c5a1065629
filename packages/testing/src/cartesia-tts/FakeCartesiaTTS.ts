import { audioBytes } from '@openmic/core/provider'
import type { IncomingHttpHeaders } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import type { WebSocket } from 'ws'
import { parseClientMessage } from '../net/client-message.js'
import { WebSocketFake } from '../net/websocket-fake.js'
import { FakeCartesiaContext, type RecordedGenerationRequest } from './FakeCartesiaContext.js'
import { tone16k } from './tone.js'
import type { FakeCartesiaTTSOptions, FakeCartesiaTTSReply } from './types.js'

/** The path of Cartesia's TTS WebSocket. */
export const CARTESIA_TTS_PATH = '/tts/websocket'

/** One accepted WebSocket connection: its upgrade request and every message the client sent. */
export interface FakeCartesiaTTSConnection {
  /** The upgrade's headers (`authorization`, `cartesia-version`...). */
  readonly headers: IncomingHttpHeaders
  /** The upgrade's URL (path and query). */
  readonly url: URL
  /** Every client message, parsed (its text when it is not JSON). */
  readonly messages: unknown[]
  readonly socket: WebSocket
  /** The close code once closed. */
  closeCode?: number
}

/**
 * A fake of Cartesia's TTS WebSocket (`/tts/websocket`) on 127.0.0.1, speaking the real messages:
 * generation requests multiplexed by `context_id` (`continue`, `add_timestamps`), `cancel`, and
 * `chunk` (base64 PCM16 16 kHz), `timestamps` (`word_timestamps` in seconds from the start of the
 * context's audio), `done` and `error` answers. Each piece of text is spoken as it arrives (a tone
 * per word); the context's `done` follows its `continue: false`. A cancelled context gets nothing
 * more (unless `ignoreCancel`).
 *
 * Replies are scripted per context, in the order contexts appear (`replyError`, `replyStall`,
 * `replyClose`); a context with nothing scripted is spoken.
 *
 * @example
 * const fake = await createFakeCartesiaTTS()
 * const tts = new CartesiaTTS({ apiKey: 'test', voiceId: 'v', baseURL: fake.baseURL })
 * fake.replyError('Invalid model', { status: 400, code: 'model_not_found' })
 * // ... tts.speak(...) fails; the next one is spoken
 * fake.contexts[0].transcript // the text the client sent
 */
export class FakeCartesiaTTS extends WebSocketFake {
  /** Every accepted connection, in order. */
  readonly connections: FakeCartesiaTTSConnection[] = []
  /** Every context, in the order of its first message. */
  readonly contexts: FakeCartesiaContext[] = []
  private readonly replies: FakeCartesiaTTSReply[] = []

  constructor(private readonly options: FakeCartesiaTTSOptions = {}) {
    super({
      name: 'Fake Cartesia TTS',
      path: CARTESIA_TTS_PATH,
      accept: (ws, req, url) => this.accept(ws, req.headers, url),
    })
  }

  /** `http://127.0.0.1:<port>`: a client's `baseURL`. */
  get baseURL(): string {
    return this.origin
  }

  /** The context `id`, if the client used it. */
  context(id: string): FakeCartesiaContext | undefined {
    return this.contexts.find((context) => context.id === id)
  }

  /** Scripts the reply to the next new context. */
  reply(reply: FakeCartesiaTTSReply): this {
    this.replies.push(reply)
    return this
  }

  /** The next new context gets an in-band `error` (with its `context_id` unless told otherwise). */
  replyError(
    message: string,
    options: { status?: number; code?: string; withContextId?: boolean } = {}
  ): this {
    return this.reply({ kind: 'error', message, ...options })
  }

  /** The next new context is never answered. */
  replyStall(): this {
    return this.reply({ kind: 'stall' })
  }

  /** The next new context's first message closes the connection (default 1000). */
  replyClose(code = 1000): this {
    return this.reply({ kind: 'close', code })
  }

  /** Forgets what was scripted and not used. */
  resetReplies(): void {
    this.replies.length = 0
  }

  /** Resolves once `count` contexts were seen. */
  waitForContexts(count: number, timeoutMs = 5000): Promise<FakeCartesiaContext[]> {
    return this.waitForCount(() => this.contexts, count, timeoutMs, 'contexts')
  }

  private accept(ws: WebSocket, headers: IncomingHttpHeaders, url: URL): void {
    const connection: FakeCartesiaTTSConnection = {
      headers,
      url,
      messages: [],
      socket: ws,
    }
    const index = this.connections.push(connection) - 1
    ws.on('error', () => {})
    ws.on('close', (code) => (connection.closeCode = code))
    // Each context's answers go out in order, one piece of text after the other.
    const queues = new Map<string, Promise<void>>()
    ws.on('message', (data, isBinary) => {
      const text = String(data)
      const message: any = isBinary ? text : parseClientMessage(text)
      connection.messages.push(message)
      if (typeof message !== 'object' || message === null) return
      const id = String(message.context_id ?? '')
      let context = this.context(id)
      if (message.cancel === true) {
        if (context) context.cancelled = true
        return
      }
      if (!context) {
        context = new FakeCartesiaContext(id, index, this.replies.shift() ?? { kind: 'speech' })
        this.contexts.push(context)
      }
      const request = message as RecordedGenerationRequest
      context.requests.push(request)
      if (request.continue !== true) context.ended = true
      const current = context
      const previous = queues.get(id) ?? Promise.resolve()
      queues.set(
        id,
        previous.then(() => this.answer(ws, current, request)).catch(() => {})
      )
    })
  }

  private async answer(
    ws: WebSocket,
    context: FakeCartesiaContext,
    request: RecordedGenerationRequest
  ): Promise<void> {
    const { reply } = context
    const send = (event: object) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event))
    }
    const first = context.requests[0] === request
    const silenced = () => context.cancelled && !this.options.ignoreCancel
    switch (reply.kind) {
      case 'stall':
        return
      case 'close':
        if (first) ws.close(reply.code ?? 1000)
        return
      case 'error':
        if (first)
          send({
            type: 'error',
            ...(reply.withContextId === false ? {} : { context_id: context.id }),
            status_code: reply.status ?? 400,
            title: 'Fake error',
            message: reply.message,
            error_code: reply.code ?? 'fake_error',
            done: true,
          })
        return
    }
    const { msPerWord = 80, chunkMs = 40, chunkDelayMs = 2, firstAudioDelayMs = 0 } = this.options
    const words = request.transcript.match(/\S+/g) ?? []
    if (words.length > 0 && !silenced()) {
      if (firstAudioDelayMs > 0 && context.audioBytes === 0) await sleep(firstAudioDelayMs)
      const startMs = context.audioMs
      if (request.add_timestamps && !silenced())
        send({
          type: 'timestamps',
          context_id: context.id,
          status_code: 206,
          done: false,
          word_timestamps: {
            words,
            start: words.map((_, i) => (startMs + i * msPerWord) / 1000),
            end: words.map((_, i) => (startMs + (i + 0.8) * msPerWord) / 1000),
          },
        })
      const audio = tone16k(words.length * msPerWord)
      const bytes = audioBytes(chunkMs)
      for (let at = 0; at < audio.length; at += bytes) {
        if (silenced() || ws.readyState !== ws.OPEN) return
        const chunk = audio.subarray(at, at + bytes)
        context.audioBytes += chunk.length
        send({
          type: 'chunk',
          context_id: context.id,
          data: chunk.toString('base64'),
          done: false,
          status_code: 206,
          step_time: 1,
        })
        if (chunkDelayMs > 0) await sleep(chunkDelayMs)
      }
    }
    if (request.continue !== true && !silenced() && !context.done) {
      context.done = true
      send({ type: 'done', context_id: context.id, done: true, status_code: 206 })
    }
  }
}

/** Starts a {@link FakeCartesiaTTS} on a free port of 127.0.0.1. */
export function createFakeCartesiaTTS(
  options: FakeCartesiaTTSOptions = {}
): Promise<FakeCartesiaTTS> {
  return new FakeCartesiaTTS(options).listen()
}
