import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { WebSocketServer } from 'ws'
import { LoopbackServer } from '../net/loopback-server.js'
import type { FakeTTSContext } from './FakeTTSContext.js'
import { FakeTTSConnection } from './FakeTTSConnection.js'
import type { FakeElevenLabsTTSOptions, FakeTTSContextReply } from './types.js'

const PATH = /^\/v1\/text-to-speech\/[^/]+\/multi-stream-input$/

/**
 * A fake of ElevenLabs' multi-context text-to-speech WebSocket on 127.0.0.1
 * (`/v1/text-to-speech/{voice_id}/multi-stream-input`), speaking the real messages: it checks
 * `xi-api-key` (HTTP 401 otherwise), records every message context by context (text, flushes,
 * keep-alives, `close_context`), answers each context with base64 PCM at the asked
 * `output_format` and its character alignment, and sends `isFinal` once a context is closed. A
 * closed context stops generating (unless `ignoreCloseContext`), and a sixth open context is
 * refused with `max_active_conversations` and a close 1008, as the API does.
 *
 * Each new context takes the next scripted reply (`replySpeech`, `replyError`, `replyStall`), or
 * `defaultReply`.
 *
 * @example
 * const fake = await createFakeElevenLabsTTS({ apiKey: 'test' })
 * const tts = new ElevenLabsTTS({ apiKey: 'test', voiceId: 'v', baseURL: fake.baseURL })
 * tts.speak(Readable.from(['Hello there.']))
 * // ... after AudioEnd:
 * fake.contexts[0].text // 'Hello there. '
 * await fake.close()
 */
export class FakeElevenLabsTTS {
  /** Every connection accepted, in order. */
  readonly connections: FakeTTSConnection[] = []
  /** Every upgrade request, accepted or not, with the status it got (101 when accepted). */
  readonly handshakes: Array<{ url: string; status: number }> = []
  /** What a context with nothing scripted gets. */
  defaultReply: FakeTTSContextReply
  private readonly replies: FakeTTSContextReply[] = []
  private readonly rejections: Array<{ status: number; body: unknown }> = []
  private readonly http: LoopbackServer
  private readonly wss = new WebSocketServer({ noServer: true })

  constructor(private readonly options: FakeElevenLabsTTSOptions = {}) {
    this.defaultReply = options.defaultReply ?? { type: 'speech' }
    this.http = new LoopbackServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ detail: 'Fake ElevenLabs TTS: WebSocket only' }))
    })
    this.http.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket as Socket, head))
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.http.listen()
    return this
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (`ws://` is derived from it). */
  get baseURL(): string {
    return this.http.origin
  }

  /** Every context of every connection, in the order they were opened. */
  get contexts(): FakeTTSContext[] {
    return this.connections.flatMap((connection) => [...connection.contexts.values()])
  }

  /** Scripts the next context: speech, with these settings. */
  replySpeech(settings: Omit<Extract<FakeTTSContextReply, { type: 'speech' }>, 'type'> = {}): this {
    this.replies.push({ type: 'speech', ...settings })
    return this
  }

  /** Scripts the next context: an error message at its first text. */
  replyError(
    message: string,
    settings: Omit<Extract<FakeTTSContextReply, { type: 'error' }>, 'type' | 'message'> = {}
  ): this {
    this.replies.push({ type: 'error', message, ...settings })
    return this
  }

  /** Scripts the next context: never answered. */
  replyStall(): this {
    this.replies.push({ type: 'stall' })
    return this
  }

  /** Refuses the next `times` upgrades (default 1) with an HTTP status and a JSON body. */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    for (let i = 0; i < (options.times ?? 1); i++) {
      this.rejections.push({ status, body: options.body ?? { detail: `Fake rejection ${status}` } })
    }
    return this
  }

  /** Closes every open connection with a close frame (default 1000). */
  closeConnections(code = 1000, reason = ''): void {
    for (const connection of this.connections) connection.close(code, reason)
  }

  /** Forgets the scripts, the refusals and the recorded connections (cutting open ones). */
  reset(): void {
    this.replies.length = 0
    this.rejections.length = 0
    for (const connection of this.connections) connection.reset()
    this.connections.length = 0
    this.handshakes.length = 0
  }

  /** Resolves once `predicate()` holds (checked every 2 ms), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    const start = Date.now()
    while (!predicate()) {
      if (Date.now() - start > timeoutMs) throw new Error(`Fake ElevenLabs TTS: no ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate()
    this.wss.close()
    await this.http.close()
  }

  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', this.baseURL)
    const key = req.headers['xi-api-key']
    const rejection = !PATH.test(url.pathname)
      ? { status: 404, body: { detail: `Fake ElevenLabs TTS: no route ${url.pathname}` } }
      : this.options.apiKey !== undefined && key !== this.options.apiKey
        ? {
            status: 401,
            body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } },
          }
        : this.rejections.shift()
    if (rejection) {
      this.handshakes.push({ url: req.url ?? '/', status: rejection.status })
      const body = JSON.stringify(rejection.body)
      socket.end(
        `HTTP/1.1 ${rejection.status} Fake\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
      )
      return
    }
    this.handshakes.push({ url: req.url ?? '/', status: 101 })
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.connections.push(
        new FakeTTSConnection(
          ws,
          url,
          req.headers,
          () => this.replies.shift() ?? this.defaultReply,
          this.options.ignoreCloseContext ?? false
        )
      )
    })
  }
}

/** Starts a {@link FakeElevenLabsTTS} on a free port of 127.0.0.1. */
export function createFakeElevenLabsTTS(
  options: FakeElevenLabsTTSOptions = {}
): Promise<FakeElevenLabsTTS> {
  return new FakeElevenLabsTTS(options).listen()
}
