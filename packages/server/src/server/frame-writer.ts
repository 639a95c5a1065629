import type { Socket } from 'node:net'
import { WebSocket } from 'ws'

/**
 * Sends a call's frames on its `ws` socket, gathering the frames of one burst (a turn's user
 * message, audio and assistant message are produced within the same event-loop turn) into one
 * system call: the TCP socket under `ws` is corked at the first frame and uncorked once the
 * current I/O callbacks are done (`setImmediate`). Order is unchanged; only the syscalls merge.
 */
export class FrameWriter {
  private readonly tcp?: Socket
  private flushing?: NodeJS.Immediate

  constructor(private readonly socket: WebSocket) {
    // `ws` keeps the TCP socket in `_socket` (also under @fastify/websocket); without it, frames
    // are simply written one by one.
    const tcp = (socket as unknown as { _socket?: Socket })._socket
    if (tcp && typeof tcp.cork === 'function') this.tcp = tcp
  }

  /** Sends a frame if the socket is open; returns whether it was sent. */
  send(data: string | Buffer, binary: boolean): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false
    if (this.tcp && !this.flushing) {
      this.tcp.cork()
      this.flushing = setImmediate(this.flush)
    }
    this.socket.send(data, { binary })
    return true
  }

  /** Writes out what is gathered now (also called when the call ends). */
  readonly flush = (): void => {
    if (!this.flushing) return
    clearImmediate(this.flushing)
    this.flushing = undefined
    this.tcp!.uncork()
  }
}
