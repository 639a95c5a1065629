import { WebSocketFakeServer, waitUntil } from '../net/websocket-fake-server.js'
import { FakeCartesiaSTTSession } from './FakeCartesiaSTTSession.js'
import type { FakeCartesiaSTTOptions, FakeCartesiaSTTPart } from './types.js'

/** The path of Cartesia's manual-finalize STT WebSocket. */
export const CARTESIA_STT_PATH = '/stt/websocket'

/** Options of a scripted transcript. */
export interface FakeCartesiaTranscriptOptions {
  /**
   * Interim texts sent first (`is_final: false`), each the utterance so far (default none).
   */
  partials?: string[]
  /**
   * The final pieces (`is_final: true`), which the client joins verbatim into `text` (default: the
   * whole text as one). They must join into the text.
   */
  finals?: string[]
  /** Wait this long after the `finalize` before the first message (default 0). */
  delayMs?: number
}

/**
 * A fake of Cartesia's realtime speech-to-text with manual finalize (`/stt/websocket?model=
 * &encoding=&sample_rate=`) on 127.0.0.1, speaking the real messages: it records the binary audio
 * frames and text commands, and answers each `finalize` with the next scripted reply (interim and
 * final `transcript`s, `flush_done`, in-band `error`s, delays, a close, a reset or a stall).
 * `close` gets `done` and a close 1000, as the API does.
 *
 * Scripted replies are used in order, one per `finalize`, whatever the session.
 *
 * @example
 * const fake = await createFakeCartesiaSTT()
 * fake.replyTranscript('Hello there', { partials: ['Hello'] })
 * // ... a client connects to `fake.baseURL`, streams audio, sends `finalize`
 * fake.sessions[0].finalizes[0] // the audio of the first utterance
 */
export class FakeCartesiaSTT {
  /** Every session opened (upgrades accepted), in order. */
  readonly sessions: FakeCartesiaSTTSession[] = []
  private readonly replies: FakeCartesiaSTTPart[][] = []
  private readonly server: WebSocketFakeServer

  constructor(private readonly options: FakeCartesiaSTTOptions = {}) {
    this.server = new WebSocketFakeServer('Fake Cartesia STT', CARTESIA_STT_PATH, (ws, req, url) =>
      this.sessions.push(new FakeCartesiaSTTSession(ws, req.headers, url, () => this.nextReply()))
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

  /** `http://127.0.0.1:<port>`: a client's `baseURL`. */
  get baseURL(): string {
    return this.server.origin
  }

  /** The audio of every finalized utterance of every session, in order. */
  get finalizes(): Buffer[] {
    return this.sessions.flatMap((session) => session.finalizes)
  }

  /** Queues the reply to the next `finalize`, as parts. */
  reply(...parts: FakeCartesiaSTTPart[]): this {
    this.replies.push(parts)
    return this
  }

  /** Queues a transcript: interim texts, the final pieces, then `flush_done`. */
  replyTranscript(text: string, options: FakeCartesiaTranscriptOptions = {}): this {
    const finals = options.finals ?? [text]
    if (finals.join('') !== text) throw new Error(`Fake Cartesia STT: finals do not make "${text}"`)
    return this.reply(
      ...(options.delayMs ? [{ type: 'delay', ms: options.delayMs } as const] : []),
      ...(options.partials ?? []).map((partial): FakeCartesiaSTTPart => ({
        type: 'transcript',
        text: partial,
        isFinal: false,
      })),
      ...finals.map((piece): FakeCartesiaSTTPart => ({
        type: 'transcript',
        text: piece,
        isFinal: true,
      })),
      { type: 'flush_done' }
    )
  }

  /** Queues an in-band `error` as the reply to the next `finalize` (the socket stays open). */
  replyError(message: string, options: { status?: number; code?: string } = {}): this {
    return this.reply({ type: 'error', message, ...options })
  }

  /** Queues silence as the reply to the next `finalize` (a provider that stalls). */
  replyStall(): this {
    return this.reply({ type: 'stall' })
  }

  /** Queues a close of the socket (default 1000) as the reply to the next `finalize`. */
  replyClose(code = 1000): this {
    return this.reply({ type: 'close', code })
  }

  /** Refuses the next `times` upgrades (default 1) with an HTTP status (401 for a wrong key...). */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    this.server.reject(status, options)
    return this
  }

  /** Resolves once `count` sessions were opened. */
  async waitForSessions(count: number, timeoutMs = 5000): Promise<FakeCartesiaSTTSession[]> {
    await waitUntil(
      () => this.sessions.length >= count,
      timeoutMs,
      () => `Fake Cartesia STT: ${this.sessions.length} of ${count} sessions`
    )
    return this.sessions.slice(0, count)
  }

  /** Resolves once `count` finalizes were received, over all sessions. */
  async waitForFinalizes(count: number, timeoutMs = 5000): Promise<Buffer[]> {
    await waitUntil(
      () => this.finalizes.length >= count,
      timeoutMs,
      () => `Fake Cartesia STT: ${this.finalizes.length} of ${count} finalizes`
    )
    return this.finalizes.slice(0, count)
  }

  /** Closes every session with a close frame (default 1000), as an idle timeout would. */
  closeSessions(code = 1000): void {
    for (const session of this.sessions) session.close(code)
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    await this.server.close()
  }

  private nextReply(): FakeCartesiaSTTPart[] {
    return (
      this.replies.shift() ??
      this.options.fallback ?? [
        { type: 'error', message: 'Fake Cartesia STT: no scripted transcript left' },
      ]
    )
  }
}

/** Starts a {@link FakeCartesiaSTT} on a free port of 127.0.0.1. */
export function createFakeCartesiaSTT(
  options: FakeCartesiaSTTOptions = {}
): Promise<FakeCartesiaSTT> {
  return new FakeCartesiaSTT(options).listen()
}
