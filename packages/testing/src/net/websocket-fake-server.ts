import { STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { LoopbackServer } from './loopback-server.js'

/** How a fake refuses a WebSocket upgrade: an HTTP status and a JSON body. */
export interface UpgradeRejection {
  status: number
  body?: unknown
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

  constructor(
    /** Name used in the fake's error bodies (`Fake Gradium TTS`). */
    private readonly name: string,
    private readonly path: string,
    private readonly onConnection: (ws: WebSocket, req: IncomingMessage, url: URL) => void
  ) {
    this.http = new LoopbackServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: `${name}: WebSocket only` }))
    })
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

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate()
    this.wss.close()
    await this.http.close()
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.upgrades++
    const url = new URL(req.url ?? '/', this.origin)
    const rejection: UpgradeRejection | undefined =
      url.pathname !== this.path
        ? { status: 404, body: { message: `${this.name}: no route ${url.pathname}` } }
        : this.rejections.shift()
    if (rejection) return refuse(socket, rejection, this.name)
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req, url))
  }
}

function refuse(socket: Duplex, rejection: UpgradeRejection, name: string): void {
  const reason = STATUS_CODES[rejection.status] ?? 'Error'
  const body = JSON.stringify(rejection.body ?? { message: `${name}: ${reason}` })
  socket.end(
    `HTTP/1.1 ${rejection.status} ${reason}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  )
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
