import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import {
  WebSocketFakeServer,
  waitUntil,
  type WebSocketFakeServerOptions,
} from './websocket-fake-server.js'

/** How a {@link WebSocketFake} is set up: its name, its path, what it does with a connection. */
export interface WebSocketFakeSetup {
  /** Named in the fake's errors and in the failures of its waits (`Fake Cartesia STT`). */
  name: string
  /** The accepted path: exact, a pattern, or a test of the pathname. */
  path: string | RegExp | ((pathname: string) => boolean)
  /** Takes an accepted WebSocket: the provider's wire starts here. */
  accept(ws: WebSocket, req: IncomingMessage, url: URL, socket: Duplex): void
  /** Key checks, error bodies, plain HTTP, handshake records. */
  server?: WebSocketFakeServerOptions
}

/**
 * What every fake WebSocket provider offers, whatever its wire: it listens on a free port of
 * 127.0.0.1, counts the upgrades, refuses them on demand, waits for what the client does, and
 * closes cutting every connection. Each fake adds its provider's messages.
 */
export class WebSocketFake {
  private readonly server: WebSocketFakeServer
  private readonly fakeName: string
  /** The accepted WebSockets not closed yet. */
  private readonly sockets = new Set<WebSocket>()

  protected constructor(setup: WebSocketFakeSetup) {
    this.fakeName = setup.name
    const accept: WebSocketFakeSetup['accept'] = (ws, ...rest) => {
      this.sockets.add(ws)
      ws.once('close', () => this.sockets.delete(ws))
      setup.accept(ws, ...rest)
    }
    this.server = new WebSocketFakeServer(setup.name, setup.path, accept, setup.server)
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

  /**
   * Refuses the next `times` upgrades (default 1) with an HTTP status, as the provider does for a
   * wrong key (401) or a rate limit (429), and a JSON body (default: the provider's error shape).
   */
  rejectUpgrades(status: number, options: { times?: number; body?: unknown } = {}): this {
    this.server.reject(status, options)
    return this
  }

  /**
   * Closes every open connection with a close frame (default 1000), as an idle timeout or a
   * restart would; resolves once each is closed (the client answered, or the socket is gone).
   */
  async closeConnections(code = 1000, reason = ''): Promise<void> {
    const closing = [...this.sockets].map(
      (ws) => new Promise<void>((resolve) => ws.once('close', () => resolve()))
    )
    for (const ws of this.sockets) ws.close(code, reason)
    await Promise.all(closing)
  }

  /** Resolves once `predicate()` holds (checked every 2 ms), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    await waitUntil(predicate, timeoutMs, () => `${this.fakeName}: no ${what}`)
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    await this.server.close()
  }

  /** `http://127.0.0.1:<port>` */
  protected get origin(): string {
    return this.server.origin
  }

  /** Forgets the refusals queued by `rejectUpgrades()`. */
  protected clearRejections(): void {
    this.server.clearRejections()
  }

  /**
   * Resolves with the first `count` of `items()` once there are that many; rejects after
   * `timeoutMs` saying how many came (`Fake Gradium ASR: 1 of 2 flushes received`).
   */
  protected async waitForCount<T>(
    items: () => readonly T[],
    count: number,
    timeoutMs: number,
    what: string
  ): Promise<T[]> {
    await waitUntil(
      () => items().length >= count,
      timeoutMs,
      () => `${this.fakeName}: ${items().length} of ${count} ${what}`
    )
    return items().slice(0, count)
  }
}

/** The fake's side of one session, as {@link WebSocketSessionsFake} needs it. */
export interface ClosableSession {
  /** Closes the session's socket with a close frame. */
  close(code?: number, reason?: string): void
}

/** A {@link WebSocketFake} that records its sessions, and closes them on demand. */
export class WebSocketSessionsFake<Session extends ClosableSession> extends WebSocketFake {
  /** Every session opened, in order. */
  readonly sessions: Session[] = []

  /** The last session opened. */
  get lastSession(): Session | undefined {
    return this.sessions.at(-1)
  }

  /** Closes every session with a close frame (default 1000), as an idle timeout would. */
  closeSessions(code = 1000, reason = ''): void {
    for (const session of this.sessions) session.close(code, reason)
  }

  /** Resolves once `count` sessions were opened. */
  waitForSessions(count: number, timeoutMs = 5000): Promise<Session[]> {
    return this.waitForCount(() => this.sessions, count, timeoutMs, 'sessions opened')
  }
}

/** The scripted steps every fake plays the same way: a close, a reset, a stall. */
type ControlStep = { type: 'close'; code?: number; reason?: string } | { type: 'reset' | 'stall' }

/**
 * A {@link WebSocketSessionsFake} answering the client's utterances with scripted replies, one per
 * utterance (a flush, a commit, a finalize...) in order, whatever the session: each reply is a list
 * of parts in the provider's wire, and every such fake can close, reset or stall instead.
 */
export class ScriptedSessionsFake<
  Session extends ClosableSession,
  Part extends { type: string },
> extends WebSocketSessionsFake<Session> {
  private readonly replies: Part[][] = []

  protected constructor(
    setup: WebSocketFakeSetup & {
      /** What an utterance with nothing scripted gets (an error, so a forgotten script is loud). */
      fallback(): Part[]
    }
  ) {
    super(setup)
    this.fallback = setup.fallback
  }

  private readonly fallback: () => Part[]

  /** How many scripted replies are still waiting for an utterance. */
  get pending(): number {
    return this.replies.length
  }

  /** Queues the reply to the next utterance, as parts. */
  reply(...parts: Part[]): this {
    this.replies.push(parts)
    return this
  }

  /** Queues silence as the reply to the next utterance (a provider that stalls). */
  replyStall(): this {
    return this.control({ type: 'stall' })
  }

  /** Queues a close of the socket (default 1000) as the reply to the next utterance. */
  replyClose(code = 1000, reason = ''): this {
    return this.control({ type: 'close', code, reason })
  }

  /** Queues a reset of the connection (no close frame) as the reply to the next utterance. */
  replyReset(): this {
    return this.control({ type: 'reset' })
  }

  /** The reply to the utterance that just ended: the next scripted one, or the fallback. */
  protected nextReply(): Part[] {
    return this.replies.shift() ?? this.fallback()
  }

  /** A wait of `ms` as a reply's part, or nothing for 0 (what a scripted `delayMs` becomes). */
  protected pause(ms = 0): Part[] {
    return ms > 0 ? [{ type: 'delay', ms } as unknown as Part] : []
  }

  /** Forgets the replies not used yet. */
  protected forgetReplies(): void {
    this.replies.length = 0
  }

  private control(step: ControlStep): this {
    // Every fake's part type includes the shared socket steps (see SocketStep).
    return this.reply(step as unknown as Part)
  }
}
