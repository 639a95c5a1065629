import type { WebSocket } from 'ws'

/**
 * The fake server's side of one WebSocket session: JSON and raw frames, a close, a reset, and the
 * close code once the socket closed. Each provider's session adds its protocol on top.
 */
export class FakeSocketSession {
  /** The close code, once the socket closed (1006 for a reset). */
  closeCode?: number
  /** Resolves when the socket is closed, whoever closed it. */
  readonly closed: Promise<void>

  constructor(protected readonly socket: WebSocket) {
    this.closed = new Promise((resolve) =>
      socket.on('close', (code) => {
        this.closeCode = code
        resolve()
      })
    )
    socket.on('error', () => {})
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN
  }

  /** Sends one server message (JSON-encoded). */
  send(message: unknown): void {
    if (this.open) this.socket.send(JSON.stringify(message))
  }

  /** Sends text as one frame, as it is. */
  sendRaw(text: string): void {
    if (this.open) this.socket.send(text)
  }

  /** Closes the socket with a close frame (default 1000). */
  close(code = 1000, reason = ''): void {
    if (this.open) this.socket.close(code, reason)
  }

  /** Cuts the TCP connection without a close frame. */
  reset(): void {
    this.socket.terminate()
  }
}
