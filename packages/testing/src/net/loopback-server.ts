import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * An HTTP server on a free port of 127.0.0.1 that keeps track of its connections, so that
 * `close()` also cuts stalled responses and open WebSockets instead of waiting for them. Every
 * fake provider server is built on one.
 */
export class LoopbackServer {
  /** The Node server: add `upgrade` listeners to it for WebSockets. */
  readonly server: Server
  private readonly sockets = new Set<Socket>()
  private port = 0

  constructor(onRequest: RequestListener) {
    this.server = createServer(onRequest)
    this.server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(0, '127.0.0.1', () => resolve())
    })
    this.port = (this.server.address() as AddressInfo).port
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Stops listening and cuts every open connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
