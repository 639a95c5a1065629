import { WebSocket } from 'ws'
import { corkOf, type Cork } from './tcp-cork.js'

/**
 * Sends a call's frames on its `ws` socket, gathering the frames of one burst (a turn's user
 * message, audio and assistant message are produced within the same event-loop turn) into one
 * system call: the connection is corked at the first frame and uncorked once the promise jobs and
 * ticks that follow it have run. Order is unchanged; only the writes merge. When the connection
 * cannot be corked, every frame is simply sent on its own.
 */
export class FrameWriter {
  private readonly connection?: Cork
  private corked = false

  constructor(private readonly socket: WebSocket) {
    this.connection = corkOf(socket)
  }

  /** Sends a frame if the socket is open; returns whether it was sent. */
  send(data: string | Buffer, binary: boolean): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false
    if (this.connection && !this.corked) {
      this.connection.cork()
      this.corked = true
      // Queued as a microtask, the tick runs once the promise jobs queued so far have run: the
      // frames an answer produces through its promise chain go out together, without waiting for
      // the rest of the event loop's I/O (which would hold the first audio back under load).
      queueMicrotask(() => process.nextTick(flush, this))
    }
    this.socket.send(data, { binary })
    return true
  }

  /** Writes out what is gathered now (the first audio of an answer, the end of the call). */
  flush(): void {
    if (!this.corked) return
    this.corked = false
    this.connection!.uncork()
  }
}

/** A burst's end (a function shared by every writer, not a closure bound to each). */
function flush(writer: FrameWriter): void {
  writer.flush()
}
