// A WebSocket speaking JSON, as a raw client of a provider uses `ws`: opened with its headers,
// each text message parsed once, and a turn waiting for the message it needs.
import WebSocket from 'ws'

export type Message = Record<string, unknown>

interface Waiter {
  pick(message: Message): unknown
  resolve(value: unknown): void
  reject(error: Error): void
}

export class JsonSocket {
  readonly ws: WebSocket
  /** Resolves once the socket is open. */
  readonly opened: Promise<void>
  private readonly waiters = new Set<Waiter>()

  constructor(
    url: string,
    headers: Record<string, string>,
    /** The error a message says, if it is one of the provider's error messages. */
    private readonly errorOf: (message: Message) => string | undefined = () => undefined
  ) {
    this.ws = new WebSocket(url, { headers })
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
    this.opened.catch(() => {})
    this.ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(JSON.parse(String(data)) as Message)
    })
    this.ws.on('close', (code) => this.failAll(new Error(`${url}: closed (${code})`)))
  }

  send(message: object): void {
    this.ws.send(JSON.stringify(message))
  }

  /** Resolves with what `pick` makes of the first message it makes something of. */
  next<T>(pick: (message: Message) => T | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiters.add({ pick, resolve: resolve as (value: unknown) => void, reject })
    })
  }

  close(): void {
    this.ws.close()
  }

  private receive(message: Message): void {
    const error = this.errorOf(message)
    if (error) return this.failAll(new Error(error))
    for (const waiter of this.waiters) {
      const value = waiter.pick(message)
      if (value === undefined) continue
      this.waiters.delete(waiter)
      waiter.resolve(value)
    }
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiters) waiter.reject(error)
    this.waiters.clear()
  }
}
