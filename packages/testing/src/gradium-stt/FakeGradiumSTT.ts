import type { WebSocket } from 'ws'
import { WebSocketFakeServer, waitUntil } from '../net/websocket-fake-server.js'
import { FakeGradiumSTTSession, type FakeGradiumFlush } from './FakeGradiumSTTSession.js'
import type { FakeGradiumASRPart, FakeGradiumSTTOptions } from './types.js'

/** The path of Gradium's streaming ASR WebSocket. */
export const GRADIUM_ASR_PATH = '/api/speech/asr'

/** Options of a scripted transcript. */
export interface FakeGradiumTranscriptOptions {
  /** The `text` segments (default: one per word). Their spaced join should be the transcript. */
  segments?: string[]
  /** Wait this long after the flush before the first segment (default 0). */
  delayMs?: number
  /** Wait this long between two segments, and before `flushed` (default 0). */
  segmentDelayMs?: number
  /** Send this many of the last segments after `flushed` instead of before (default 0). */
  afterFlushed?: number
}

/**
 * A fake of Gradium's streaming speech-to-text on 127.0.0.1: a WebSocket on `/api/speech/asr`
 * speaking the real messages. It wants `setup` first (anything else gets an `error` 1008 and a
 * close), answers it with `ready`, records every audio chunk, and answers each `flush` with the
 * next scripted reply (`text` segments, `end_text`, `step`, `flushed` with the client's
 * `flush_id`, in-band errors, delays, a close or a reset). `end_of_stream` gets `end_of_stream`
 * and a close 1000.
 *
 * Scripted replies are used in order, one per flush, whatever the session.
 *
 * @example
 * const fake = await createFakeGradiumSTT()
 * fake.replyTranscript('Hello world', { delayMs: 150 })
 * // ... a client connects to `fake.baseURL`, sends setup, waits for ready, streams audio, flushes
 * fake.flushes[0].audio // the audio of the first utterance, decoded
 * await fake.close()
 */
export class FakeGradiumSTT {
  /** Every session opened (upgrades accepted), in order. */
  readonly sessions: FakeGradiumSTTSession[] = []
  private readonly replies: FakeGradiumASRPart[][] = []
  private readonly server: WebSocketFakeServer

  constructor(private readonly options: FakeGradiumSTTOptions = {}) {
    this.server = new WebSocketFakeServer('Fake Gradium ASR', GRADIUM_ASR_PATH, (ws, req) =>
      this.connection(ws, req.headers)
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

  /** The last session opened. */
  get lastSession(): FakeGradiumSTTSession | undefined {
    return this.sessions.at(-1)
  }

  /** Every flush of every session, in order. */
  get flushes(): FakeGradiumFlush[] {
    return this.sessions.flatMap((session) => session.flushes)
  }

  /** How many scripted replies are still waiting for a flush. */
  get pending(): number {
    return this.replies.length
  }

  /** Queues the reply to the next flush, as parts. */
  reply(...parts: FakeGradiumASRPart[]): this {
    this.replies.push(parts)
    return this
  }

  /** Queues a transcript: its `text` segments, an `end_text`, then `flushed`. */
  replyTranscript(text: string, options: FakeGradiumTranscriptOptions = {}): this {
    const segments = options.segments ?? text.split(/\s+/).filter(Boolean)
    const pause = (ms = 0): FakeGradiumASRPart[] => (ms > 0 ? [{ type: 'delay', ms }] : [])
    const late = Math.min(options.afterFlushed ?? 0, segments.length)
    const texts = (list: string[]) =>
      list.flatMap((segment, i): FakeGradiumASRPart[] => [
        ...(i > 0 ? pause(options.segmentDelayMs) : []),
        { type: 'text', text: segment },
      ])
    return this.reply(
      ...pause(options.delayMs),
      ...texts(segments.slice(0, segments.length - late)),
      ...(segments.length > late ? [{ type: 'end_text' } as const] : []),
      ...pause(options.segmentDelayMs),
      { type: 'flushed' },
      ...texts(segments.slice(segments.length - late))
    )
  }

  /** Queues an in-band `error` (then a close with its code) as the reply to the next flush. */
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

  /** Refuses the next `times` upgrades (default 1) with an HTTP status. */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    this.server.reject(status, options)
    return this
  }

  /** Resolves once `count` sessions were opened. */
  async waitForSessions(count: number, timeoutMs = 5000): Promise<FakeGradiumSTTSession[]> {
    await waitUntil(
      () => this.sessions.length >= count,
      timeoutMs,
      () => `Fake Gradium ASR: ${this.sessions.length} of ${count} sessions opened`
    )
    return this.sessions.slice(0, count)
  }

  /** Resolves once `count` flushes were received, over all sessions. */
  async waitForFlushes(count: number, timeoutMs = 5000): Promise<FakeGradiumFlush[]> {
    await waitUntil(
      () => this.flushes.length >= count,
      timeoutMs,
      () => `Fake Gradium ASR: ${this.flushes.length} of ${count} flushes received`
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

  private connection(ws: WebSocket, headers: FakeGradiumSTTSession['headers']): void {
    const session = new FakeGradiumSTTSession(ws, headers, {
      onFlush: () => this.nextReply(),
      onSetup: (s) => {
        const { apiKey, readyDelayMs = 0, withholdReady } = this.options
        if (apiKey !== undefined && s.headers['x-api-key'] !== apiKey) {
          return s.sendError('Invalid API key', 1008)
        }
        if (withholdReady) return
        if (readyDelayMs > 0) setTimeout(() => s.open && s.sendReady(), readyDelayMs)
        else s.sendReady()
      },
    })
    this.sessions.push(session)
  }

  private nextReply(): FakeGradiumASRPart[] {
    return (
      this.replies.shift() ??
      this.options.fallback ?? [
        {
          type: 'error',
          message: 'Fake Gradium ASR: no scripted transcription left',
          keepOpen: true,
        },
      ]
    )
  }
}

/** Starts a {@link FakeGradiumSTT} on a free port of 127.0.0.1. */
export function createFakeGradiumSTT(options: FakeGradiumSTTOptions = {}): Promise<FakeGradiumSTT> {
  return new FakeGradiumSTT(options).listen()
}
