import type { Socket } from 'node:net'
import { WebSocket } from 'ws'

/**
 * Sends a call's frames on its `ws` socket, gathering the frames of one burst (a turn's user
 * message, audio and assistant message are produced within the same event-loop turn) into one
 * system call: the TCP socket under `ws` is corked at the first frame and uncorked once the
 * promise jobs and ticks that follow it have run. Order is unchanged; only the syscalls merge.
 */
export class FrameWriter {
  private readonly tcp?: Socket
  private corked = false

  constructor(private readonly socket: WebSocket) {
    // `ws` keeps the TCP socket in `_socket` (also under @fastify/websocket); without it, frames
    // are simply written one by one.
    const tcp = (socket as unknown as { _socket?: Socket })._socket
    if (tcp && typeof tcp.cork === 'function') this.tcp = tcp
  }

  /** Sends a frame if the socket is open; returns whether it was sent. */
  send(data: string | Buffer, binary: boolean): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false
    if (this.tcp && !this.corked) {
      this.tcp.cork()
      this.corked = true
      queueMicrotask(this.flushAfterTicks)
    }
    this.socket.send(data, { binary })
    return true
  }

  /** Writes out what is gathered now (the first audio of an answer, the end of the call). */
  readonly flush = (): void => {
    if (!this.corked) return
    this.corked = false
    this.tcp!.uncork()
  }

  // Queued as a microtask, this tick runs once the promise jobs queued so far have run: the
  // frames an answer produces through its promise chain go out together, without waiting for
  // the rest of the event loop's I/O.
  private readonly flushAfterTicks = (): void => {
    process.nextTick(this.flush)
  }
}
