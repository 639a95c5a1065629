import { WebSocketFakeServer, waitUntil } from '../net/websocket-fake-server.js'
import type { FakeGradiumTTSRequest } from './FakeGradiumTTSRequest.js'
import { FakeGradiumTTSSession } from './FakeGradiumTTSSession.js'
import type { FakeGradiumSpeechReply, FakeGradiumTTSOptions } from './types.js'

/** The path of Gradium's streaming TTS WebSocket. */
export const GRADIUM_TTS_PATH = '/api/speech/tts'

/**
 * A fake of Gradium's streaming text-to-speech on 127.0.0.1: a WebSocket on `/api/speech/tts`
 * speaking the real messages, multiplexed by `client_req_id` like Gradium with
 * `close_ws_on_eos: false`. Each `setup` gets its `ready`; each `text` gets audio (a tone in the
 * setup's `output_format`: `pcm_16000`, `pcm_24000`, or 48 kHz `pcm`) and a word timestamp per
 * word; the client's `end_of_stream` gets one back, then a close unless `close_ws_on_eos` is
 * `false`. Audio goes on after the client ends a request, as Gradium finishes what it was given.
 *
 * Requests are answered with speech unless a reply is scripted (in order, one per setup): an
 * in-band error, a stall, a close or a reset.
 *
 * @example
 * const fake = await createFakeGradiumTTS()
 * fake.reply({ kind: 'error', message: 'Concurrency limit exceeded', code: 1008 })
 * // ... a client connects to `fake.baseURL`, sets up a request, sends text
 * fake.requests[0].text // what the client sent
 * await fake.close()
 */
export class FakeGradiumTTS {
  /** Every socket opened (upgrades accepted), in order. */
  readonly sessions: FakeGradiumTTSSession[] = []
  private readonly replies: FakeGradiumSpeechReply[] = []
  private readonly server: WebSocketFakeServer

  constructor(private readonly options: FakeGradiumTTSOptions = {}) {
    this.server = new WebSocketFakeServer('Fake Gradium TTS', GRADIUM_TTS_PATH, (ws, req) =>
      this.sessions.push(
        new FakeGradiumTTSSession(ws, req.headers, this.options, () => this.nextReply())
      )
    )
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.server.listen()
    return this
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (which derives `ws://` from it). */
  get baseURL(): string {
    return this.server.origin
  }

  /** Every upgrade request received, accepted or not. */
  get upgrades(): number {
    return this.server.upgrades
  }

  /** The last socket opened. */
  get lastSession(): FakeGradiumTTSSession | undefined {
    return this.sessions.at(-1)
  }

  /** Every request of every socket, in order. */
  get requests(): FakeGradiumTTSRequest[] {
    return this.sessions.flatMap((session) => session.requests)
  }

  /** Queues how the next request (setup) is answered. */
  reply(reply: FakeGradiumSpeechReply): this {
    this.replies.push(reply)
    return this
  }

  /** Forgets the replies not used yet. */
  clearReplies(): this {
    this.replies.length = 0
    return this
  }

  /** Refuses the next `times` upgrades (default 1) with an HTTP status. */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    this.server.reject(status, options)
    return this
  }

  /** Resolves once `count` sockets were opened. */
  async waitForSessions(count: number, timeoutMs = 5000): Promise<FakeGradiumTTSSession[]> {
    await waitUntil(
      () => this.sessions.length >= count,
      timeoutMs,
      () => `Fake Gradium TTS: ${this.sessions.length} of ${count} sockets opened`
    )
    return this.sessions.slice(0, count)
  }

  /** Resolves once `count` requests were set up, over all sockets. */
  async waitForRequests(count: number, timeoutMs = 5000): Promise<FakeGradiumTTSRequest[]> {
    await waitUntil(
      () => this.requests.length >= count,
      timeoutMs,
      () => `Fake Gradium TTS: ${this.requests.length} of ${count} requests set up`
    )
    return this.requests.slice(0, count)
  }

  /** Closes every socket with a close frame (default 1000). */
  closeSessions(code = 1000): void {
    for (const session of this.sessions) session.close(code)
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    await this.server.close()
  }

  private nextReply(): FakeGradiumSpeechReply {
    return this.replies.shift() ?? { kind: 'speech' }
  }
}

/** Starts a {@link FakeGradiumTTS} on a free port of 127.0.0.1. */
export function createFakeGradiumTTS(options: FakeGradiumTTSOptions = {}): Promise<FakeGradiumTTS> {
  return new FakeGradiumTTS(options).listen()
}
