import type { IncomingMessage, ServerResponse } from 'node:http'
import { LoopbackServer } from './loopback-server.js'
import { waitUntil } from './websocket-fake-server.js'

/**
 * What every fake HTTP provider offers, whatever its wire: it listens on a free port of 127.0.0.1,
 * records every request, answers each with the next scripted reply, waits for the client's
 * requests, and closes cutting every connection (stalled responses included). Each fake adds its
 * provider's routes and replies.
 */
export class HttpFake<Recorded, Reply> {
  /** Every request received, in order. */
  readonly requests: Recorded[] = []
  private readonly queue: Reply[] = []
  private readonly http: LoopbackServer

  protected constructor(
    /** Named in the failures of its waits (`Fake speech server`). */
    private readonly fakeName: string,
    /** Answers one request (recording it in `requests`). */
    handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
  ) {
    this.http = new LoopbackServer((req, res) => {
      // A client that goes away while its body is read must not become an unhandled rejection.
      handle(req, res).catch(() => res.destroy())
    })
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.http.listen()
    return this
  }

  /** How many scripted replies are still waiting for a request. */
  get pending(): number {
    return this.queue.length
  }

  /** Queues replies, used one per request in order. */
  enqueue(...replies: Reply[]): this {
    this.queue.push(...replies)
    return this
  }

  /** Resolves once `count` requests were received (polling every few ms). */
  async waitForRequests(count: number, timeoutMs = 5000): Promise<Recorded[]> {
    await waitUntil(
      () => this.requests.length >= count,
      timeoutMs,
      () => `${this.fakeName}: ${this.requests.length} of ${count} requests received`
    )
    return this.requests.slice(0, count)
  }

  /** Forgets the scripted replies and the recorded requests. */
  reset(): void {
    this.queue.length = 0
    this.requests.length = 0
  }

  /** Stops the server, closing open connections (stalled responses included). */
  async close(): Promise<void> {
    await this.http.close()
  }

  /** `http://127.0.0.1:<port>` */
  protected get origin(): string {
    return this.http.origin
  }

  /** The next scripted reply, if any is left. */
  protected nextReply(): Reply | undefined {
    return this.queue.shift()
  }
}
