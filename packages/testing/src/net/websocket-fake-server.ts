import { STATUS_CODES, type IncomingMessage, type RequestListener } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { LoopbackServer } from './loopback-server.js'

/** How a fake refuses a WebSocket upgrade: an HTTP status and a JSON body. */
export interface UpgradeRejection {
  status: number
  body?: unknown
}

/** What a fake adds to the plumbing of {@link WebSocketFakeServer}; every field is optional. */
export interface WebSocketFakeServerOptions {
  /**
   * Checked on every upgrade to the accepted path, before the refusals queued by `reject()`: a
   * refusal (a wrong key, an unknown session) or `undefined` to go on.
   */
  authorize?: (req: IncomingMessage, url: URL) => UpgradeRejection | undefined
  /**
   * The JSON body of the fake's own errors (no route, a refusal queued without a body, plain
   * HTTP), in the provider's error shape. Default `{ message }`.
   */
  errorBody?: (message: string, status: number) => unknown
  /** Answers plain HTTP requests (default: a 404 saying the fake is WebSocket only). */
  onRequest?: RequestListener
  /** Told the outcome of every upgrade: 101 when accepted, else the refusal's status. */
  onHandshake?: (req: IncomingMessage, url: URL, status: number) => void
}

/**
 * The plumbing of a fake WebSocket provider on 127.0.0.1: one path accepted (any other gets a
 * 404), upgrades refused on demand with an HTTP status, every upgrade counted, and a `close()` that
 * cuts every connection.
 */
export class WebSocketFakeServer {
  /** Every upgrade request received, accepted or not. */
  upgrades = 0
  private readonly rejections: UpgradeRejection[] = []
  private readonly http: LoopbackServer
  private readonly wss = new WebSocketServer({ noServer: true })
  private readonly errorBody: (message: string, status: number) => unknown

  constructor(
    /** Name used in the fake's error bodies (`Fake Gradium TTS`). */
    private readonly name: string,
    /** The accepted path: exact, a pattern, or a test of the pathname. */
    private readonly path: string | RegExp | ((pathname: string) => boolean),
    private readonly onConnection: (
      ws: WebSocket,
      req: IncomingMessage,
      url: URL,
      socket: Duplex
    ) => void,
    private readonly options: WebSocketFakeServerOptions = {}
  ) {
    this.errorBody = options.errorBody ?? ((message) => ({ message }))
    this.http = new LoopbackServer(
      options.onRequest ??
        ((_req, res) => {
          res.writeHead(404, { 'content-type': 'application/json' })
          res.end(JSON.stringify(this.errorBody(`${name}: WebSocket only`, 404)))
        })
    )
    this.http.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head))
  }

  async listen(): Promise<void> {
    await this.http.listen()
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return this.http.origin
  }

  /** Refuses the next `times` upgrades (default 1) with `status`. */
  reject(status: number, options: { times?: number; body?: unknown } = {}): void {
    for (let i = 0; i < (options.times ?? 1); i++) {
      this.rejections.push({ status, body: options.body })
    }
  }

  /** Forgets the refusals queued by `reject()`. */
  clearRejections(): void {
    this.rejections.length = 0
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate()
    this.wss.close()
    await this.http.close()
  }

  private accepts(pathname: string): boolean {
    const { path } = this
    if (typeof path === 'string') return pathname === path
    return path instanceof RegExp ? path.test(pathname) : path(pathname)
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.upgrades++
    socket.on('error', () => socket.destroy())
    const url = new URL(req.url ?? '/', this.origin)
    const rejection: UpgradeRejection | undefined = !this.accepts(url.pathname)
      ? { status: 404, body: this.errorBody(`${this.name}: no route ${url.pathname}`, 404) }
      : (this.options.authorize?.(req, url) ?? this.rejections.shift())
    this.options.onHandshake?.(req, url, rejection?.status ?? 101)
    if (rejection) return this.refuse(socket, rejection)
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req, url, socket))
  }

  private refuse(socket: Duplex, rejection: UpgradeRejection): void {
    const reason = STATUS_CODES[rejection.status] ?? 'Error'
    const body = JSON.stringify(
      rejection.body ?? this.errorBody(`${this.name}: ${reason}`, rejection.status)
    )
    socket.end(
      `HTTP/1.1 ${rejection.status} ${reason}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  }
}

/** Resolves once `done()` holds; rejects after `timeoutMs` naming what was awaited. */
export async function waitUntil(
  done: () => boolean,
  timeoutMs: number,
  what: () => string
): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(what())
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}
