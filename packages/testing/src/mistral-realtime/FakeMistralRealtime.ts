import type { WebSocket } from 'ws'
import { WebSocketFakeServer, waitUntil } from '../net/websocket-fake-server.js'
import { FakeRealtimeSession } from './FakeRealtimeSession.js'
import type { FakeMistralRealtimeOptions, FakeTranscriptionPart } from './types.js'

/** The path of Mistral's realtime transcription WebSocket. */
export const MISTRAL_REALTIME_PATH = '/v1/audio/transcriptions/realtime'

/** Options of a scripted transcript. */
export interface FakeMistralTranscriptOptions {
  /**
   * The `transcription.text.delta` pieces sent before the final text (default: the text cut
   * after each space). `[]` sends none.
   */
  deltas?: string[]
  /** Wait this long after the flush before the first event (default 0). */
  delayMs?: number
  /** Wait this long between two deltas, and before `transcription.done` (default 0). */
  deltaDelayMs?: number
  /** The `language` of `transcription.done` (default null). */
  language?: string
}

/**
 * A fake of Mistral's realtime transcription API (Voxtral) on 127.0.0.1: a WebSocket on
 * `/v1/audio/transcriptions/realtime?model=...` speaking the real messages. It sends
 * `session.created` on connection, answers `session.update` with `session.updated` (and with an
 * `error` once audio started, like the real API), records every appended chunk, and answers each
 * `input_audio.flush` with the next scripted reply (deltas, `transcription.done`, in-band errors,
 * delays, a close or a reset). `input_audio.end` closes the session with 1000.
 *
 * Scripted replies are used in order, one per flush, whatever the session.
 *
 * @example
 * const fake = await createFakeMistralRealtime()
 * fake.replyTranscript('Hello world', { delayMs: 150 })
 * // ... a client connects to `fake.serverURL`, streams audio and flushes
 * fake.sessions[0].flushes[0] // the audio of the first utterance, decoded
 * await fake.close()
 */
export class FakeMistralRealtime {
  /** Every session opened (upgrades accepted), in order. */
  readonly sessions: FakeRealtimeSession[] = []
  private readonly replies: FakeTranscriptionPart[][] = []
  private readonly server: WebSocketFakeServer

  constructor(private readonly options: FakeMistralRealtimeOptions = {}) {
    this.server = new WebSocketFakeServer(
      'Fake Mistral realtime',
      MISTRAL_REALTIME_PATH,
      (ws, req, url) => this.connection(ws, req.headers, url),
      { errorBody: (message) => ({ message, type: 'fake_error' }) }
    )
  }

  /** Every upgrade request received, accepted or not. */
  get upgrades(): number {
    return this.server.upgrades
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.server.listen()
    return this
  }

  /** `http://127.0.0.1:<port>`: the `serverURL` of a client (the SDK derives `ws://` from it). */
  get serverURL(): string {
    return this.server.origin
  }

  /** The last session opened. */
  get lastSession(): FakeRealtimeSession | undefined {
    return this.sessions.at(-1)
  }

  /** The audio of every flush of every session, in order. */
  get flushes(): Buffer[] {
    return this.sessions.flatMap((session) => session.flushes)
  }

  /** How many scripted replies are still waiting for a flush. */
  get pending(): number {
    return this.replies.length
  }

  /** Queues the reply to the next flush, as parts. */
  reply(...parts: FakeTranscriptionPart[]): this {
    this.replies.push(parts)
    return this
  }

  /** Queues a transcript: deltas, then `transcription.done` with `text`. */
  replyTranscript(text: string, options: FakeMistralTranscriptOptions = {}): this {
    const deltas = options.deltas ?? (text.match(/\S+\s*/g) ?? []).map(String)
    const pause = (ms = 0): FakeTranscriptionPart[] => (ms > 0 ? [{ type: 'delay', ms }] : [])
    return this.reply(
      ...pause(options.delayMs),
      ...deltas.flatMap((delta, i): FakeTranscriptionPart[] => [
        ...(i > 0 ? pause(options.deltaDelayMs) : []),
        { type: 'delta', text: delta },
      ]),
      ...(deltas.length > 0 ? pause(options.deltaDelayMs) : []),
      { type: 'done', text, language: options.language ?? null }
    )
  }

  /** Queues an in-band `error` as the reply to the next flush (the socket stays open). */
  replyError(message: string, options: { code?: number; delayMs?: number } = {}): this {
    return this.reply(
      ...(options.delayMs ? [{ type: 'delay', ms: options.delayMs } as const] : []),
      { type: 'error', message, code: options.code }
    )
  }

  /** Queues a close of the socket (default 1000) as the reply to the next flush. */
  replyClose(code = 1000, reason = ''): this {
    return this.reply({ type: 'close', code, reason })
  }

  /** Queues a reset of the connection as the reply to the next flush. */
  replyReset(): this {
    return this.reply({ type: 'reset' })
  }

  /** Queues silence as the reply to the next flush (a provider that stalls). */
  replyStall(): this {
    return this.reply({ type: 'stall' })
  }

  /**
   * Refuses the next `times` upgrades (default 1) with an HTTP status, as the real API does for a
   * wrong key (401) or a rate limit (429).
   */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    this.server.reject(status, options)
    return this
  }

  /** Resolves once `count` sessions were opened. */
  async waitForSessions(count: number, timeoutMs = 5000): Promise<FakeRealtimeSession[]> {
    await waitUntil(
      () => this.sessions.length >= count,
      timeoutMs,
      () => `Fake Mistral realtime: ${this.sessions.length} of ${count} sessions opened`
    )
    return this.sessions.slice(0, count)
  }

  /** Resolves once `count` flushes were received, over all sessions. */
  async waitForFlushes(count: number, timeoutMs = 5000): Promise<Buffer[]> {
    await waitUntil(
      () => this.flushes.length >= count,
      timeoutMs,
      () => `Fake Mistral realtime: ${this.flushes.length} of ${count} flushes received`
    )
    return this.flushes.slice(0, count)
  }

  /** Closes every session with a close frame (default 1000). */
  closeSessions(code = 1000): void {
    for (const session of this.sessions) session.close(code)
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    await this.server.close()
  }

  private connection(ws: WebSocket, headers: FakeRealtimeSession['headers'], url: URL): void {
    const session = new FakeRealtimeSession(ws, headers, url, () => this.nextReply())
    this.sessions.push(session)
    if (this.options.withholdSessionCreated) return
    const delay = this.options.sessionCreatedDelayMs ?? 0
    if (delay > 0) setTimeout(() => session.open && session.sendSessionCreated(), delay)
    else session.sendSessionCreated()
  }

  private nextReply(): FakeTranscriptionPart[] {
    return (
      this.replies.shift() ??
      this.options.fallback ?? [
        { type: 'error', message: 'Fake Mistral realtime: no scripted transcription left' },
      ]
    )
  }
}

/** Starts a {@link FakeMistralRealtime} on a free port of 127.0.0.1. */
export function createFakeMistralRealtime(
  options: FakeMistralRealtimeOptions = {}
): Promise<FakeMistralRealtime> {
  return new FakeMistralRealtime(options).listen()
}
