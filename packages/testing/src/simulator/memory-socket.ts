import { EventEmitter } from 'node:events'
import type { WebSocket } from 'ws'

const OPEN = 1
const CLOSING = 2
const CLOSED = 3

/**
 * One direction of the connection: what goes in comes out `latencyMs` later, in order. Frames
 * due at the same instant come out together, as a TCP read would hand them over.
 */
class Link {
  private readonly queue: Array<{ at: number; deliver: () => void }> = []
  private timer?: ReturnType<typeof setTimeout>

  constructor(private readonly latencyMs: number) {}

  carry(deliver: () => void): void {
    // No latency: within the same instant, after what the sender is doing (a timer of 0 ms set
    // while another fires would come 1 ms later on the fake clock, as on Node's).
    if (this.latencyMs <= 0) return queueMicrotask(deliver)
    this.queue.push({ at: Date.now() + this.latencyMs, deliver })
    this.timer ??= setTimeout(this.flush, this.latencyMs)
  }

  private readonly flush = () => {
    this.timer = undefined
    const now = Date.now()
    while (this.queue.length > 0 && this.queue[0]!.at <= now) this.queue.shift()!.deliver()
    const next = this.queue[0]
    if (next) this.timer = setTimeout(this.flush, next.at - now)
  }
}

/** What the client end is told. */
export interface ClientEndHandlers {
  text(text: string): void
  audio(audio: Buffer): void
  close(code: number): void
}

/** The client's end of the connection. */
export interface ClientEnd {
  readonly open: boolean
  sendText(text: string): void
  sendAudio(audio: Buffer): void
  /** Closes the connection from the client (the server learns it `latencyMs` later). */
  close(code: number): void
}

/** Hooks the simulator puts on the server's end. */
export interface ServerEndHooks {
  /** The server sent a frame. */
  sent(data: string | Buffer, binary: boolean): void
  /** A client frame reached the server, which handles it now. */
  delivered(data: Buffer, binary: boolean): void
  closed(side: 'server' | 'client', code: number): void
}

/**
 * The server's end: what `MicdropServer` uses of a `ws` WebSocket (events, `readyState`,
 * `send`, `close`, `terminate`, `pause`/`resume`). It has no `_socket`, so nothing is corked.
 */
class ServerEnd extends EventEmitter {
  readyState = OPEN
  bufferedAmount = 0
  binaryType = 'nodebuffer'
  protocol = ''
  extensions = ''

  constructor(
    private readonly toClient: Link,
    private readonly latencyMs: number,
    private readonly client: ClientEndHandlers,
    private readonly hooks: ServerEndHooks
  ) {
    super()
  }

  send(data: string | Buffer, options?: { binary?: boolean } | ((error?: Error) => void)) {
    if (this.readyState !== OPEN) return
    const binary =
      typeof options === 'object' && options.binary !== undefined
        ? options.binary
        : typeof data !== 'string'
    this.hooks.sent(data, binary)
    const copy = typeof data === 'string' ? data : Buffer.from(data)
    this.toClient.carry(() => {
      if (binary) this.client.audio(Buffer.isBuffer(copy) ? copy : Buffer.from(copy))
      else this.client.text(copy.toString())
    })
  }

  close(code = 1000, _reason?: string) {
    if (this.readyState !== OPEN) return
    this.readyState = CLOSING
    this.hooks.closed('server', code)
    this.toClient.carry(() => this.client.close(code))
    // The client's closing frame comes back a round trip later; then the socket is closed.
    setTimeout(() => this.finish(code), 2 * this.latencyMs)
  }

  terminate() {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.hooks.closed('server', 1006)
    this.toClient.carry(() => this.client.close(1006))
    this.emit('close', 1006, Buffer.alloc(0))
  }

  pause() {}
  resume() {}
  ping() {}
  pong() {}

  /** A frame from the client reaches the server. */
  receive(data: Buffer, binary: boolean) {
    if (this.readyState !== OPEN) return
    this.hooks.delivered(data, binary)
    this.emit('message', data, binary)
  }

  /** The client closed the connection. */
  peerClosed(code: number) {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.emit('close', code, Buffer.alloc(0))
  }

  private finish(code: number) {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.emit('close', code, Buffer.alloc(0))
  }
}

/**
 * An in-memory WebSocket connection on virtual time: every frame, either way, arrives
 * `latencyMs` after it was sent, in order. `server` is handed to `MicdropServer` as its `ws`
 * socket; the simulated client plays `client`.
 */
export function createSocketPair(
  latencyMs: number,
  client: ClientEndHandlers,
  hooks: ServerEndHooks
): { server: WebSocket; client: ClientEnd } {
  const toClient = new Link(latencyMs)
  const toServer = new Link(latencyMs)
  let open = true
  const toClientHandlers: ClientEndHandlers = {
    text: (text) => client.text(text),
    audio: (audio) => client.audio(audio),
    close(code) {
      open = false
      client.close(code)
    },
  }
  const server = new ServerEnd(toClient, latencyMs, toClientHandlers, hooks)
  const clientEnd: ClientEnd = {
    get open() {
      return open
    },
    sendText(text) {
      if (!clientEnd.open) return
      toServer.carry(() => server.receive(Buffer.from(text), false))
    },
    sendAudio(audio) {
      if (!clientEnd.open) return
      toServer.carry(() => server.receive(audio, true))
    },
    close(code) {
      if (!open) return
      open = false
      hooks.closed('client', code)
      toServer.carry(() => server.peerClosed(code))
    },
  }
  return { server: server as unknown as WebSocket, client: clientEnd }
}
