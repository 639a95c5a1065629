import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import {
  encodeClientHello,
  parseServerMessage,
  type MicdropConversationItem,
  type MicdropServerMessage,
} from '@openmic/core/protocol'
import { afterEach } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MicdropServer, type MicdropServerOptions } from '../src/index.js'

/** Resolves once `condition` holds (checked every 20 ms), or rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('until: timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The items `server` made final (its `Message` events: what the store keeps), as they come. */
export function finalItems(server: MicdropServer): MicdropConversationItem[] {
  const items: MicdropConversationItem[] = []
  server.on('Message', (item) => items.push(item))
  return items
}

/** Runs `stop` (what the test started) after each test of the file. */
export function closeAfterEach(): { stop?: () => Promise<void> } {
  const state: { stop?: () => Promise<void> } = {}
  afterEach(async () => {
    await state.stop?.()
    state.stop = undefined
  })
  return state
}

/** A `ws` server on 127.0.0.1 that runs `onConnection` for each call. */
export async function startServer(
  onConnection: (socket: WebSocket) => void | Promise<void>,
  options: { maxPayload?: number } = {}
) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options })
  const sockets: WebSocket[] = []
  wss.on('connection', (socket) => {
    sockets.push(socket)
    void onConnection(socket)
  })
  await once(wss, 'listening')
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
  return {
    url,
    sockets,
    async close() {
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}

/** A server whose calls are built by `create`; returns the MicdropServers too. */
export async function startMicdrop(create: (socket: WebSocket) => MicdropServer) {
  const servers: MicdropServer[] = []
  const server = await startServer((socket) => {
    servers.push(create(socket))
  })
  return { ...server, servers }
}

/**
 * Starts a server whose calls use fresh doubles (MockAgent, MockSTT, MockTTS, overridden by what
 * `make` returns), stopped after the test, and connects one client to it.
 */
export async function startMockCall(
  cleanup: { stop?: () => Promise<void> },
  make: () => Partial<MicdropServerOptions> = () => ({}),
  client: ClientOptions = {}
) {
  const server = await startMicdrop(
    (socket) =>
      new MicdropServer(socket, {
        agent: new MockAgent(),
        stt: new MockSTT(),
        tts: new MockTTS(),
        ...make(),
      })
  )
  cleanup.stop = server.close
  const connected = await TestClient.connect(server.url, client)
  await connected.waitFor(() => server.servers.length === 1)
  return { client: connected, server: server.servers[0]!, url: server.url }
}

export interface ClientOptions {
  /**
   * Say `Hello {"captions":true}` first, as openmic's client does: the server then sends each
   * answer's `Message` once final, with `Caption` frames before it. Without it the client is a
   * Micdrop client: it is sent an answer's `Message` as the answer starts playing.
   */
  captions?: boolean
}

export type Received =
  { kind: 'text'; text: string; message: MicdropServerMessage } | { kind: 'audio'; audio: Buffer }

/** A real `ws` client that records everything the server sends. */
export class TestClient {
  readonly received: Received[] = []
  closeCode?: number
  closeReason?: string
  private waiters: Array<() => void> = []

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.received.push({ kind: 'audio', audio: data })
      else {
        const text = data.toString()
        this.received.push({ kind: 'text', text, message: parseServerMessage(text) })
      }
      this.notify()
    })
    socket.on('close', (code, reason) => {
      this.closeCode = code
      this.closeReason = reason.toString()
      this.notify()
    })
  }

  static async connect(url: string, options: ClientOptions = {}): Promise<TestClient> {
    const socket = new WebSocket(url)
    const client = new TestClient(socket)
    await once(socket, 'open')
    if (options.captions) client.send(encodeClientHello({ captions: true }))
    return client
  }

  /**
   * Names of the frames received (`Message:user`, `SkipAnswer`, ...), audio as `audio`; without
   * `Hello` and `Caption` (see `texts('Caption')`), which tell how, not what.
   */
  get log(): string[] {
    return this.received.flatMap((item) => {
      if (item.kind === 'audio') return ['audio']
      const { message } = item
      if (message.type === 'Hello' || message.type === 'Caption') return []
      if (message.type === 'Message') return [`Message:${message.item.role}`]
      if (message.type === 'Unknown') return [message.name]
      return [message.type]
    })
  }

  /** The log with consecutive audio frames collapsed into one `audio`. */
  get flow(): string[] {
    return this.log.filter((entry, i, all) => entry !== 'audio' || all[i - 1] !== 'audio')
  }

  /** The caption pieces received, joined. */
  get captions(): string {
    return this.texts('Caption')
      .map((message) => (message.type === 'Caption' ? message.caption.text : ''))
      .join('')
  }

  /** The conversation as the client keeps it: `Message` adds, `CancelLastUserMessage` removes. */
  get conversation(): MicdropConversationItem[] {
    const items: MicdropConversationItem[] = []
    for (const item of this.received) {
      if (item.kind !== 'text') continue
      if (item.message.type === 'Message') items.push(item.message.item)
      if (item.message.type === 'CancelLastUserMessage') {
        const index = items.findLastIndex((entry) => entry.role === 'user')
        if (index !== -1) items.splice(index, 1)
      }
    }
    return items
  }

  texts(type: MicdropServerMessage['type']): MicdropServerMessage[] {
    return this.received.flatMap((item) =>
      item.kind === 'text' && item.message.type === type ? [item.message] : []
    )
  }

  /** An assistant `Message` came after the last user `Message` (the answer to it). */
  get answeredLast(): boolean {
    return this.log.lastIndexOf('Message:assistant') > this.log.lastIndexOf('Message:user')
  }

  count(entry: string): number {
    return this.log.filter((item) => item === entry).length
  }

  audioBytes(): number {
    return this.received.reduce(
      (sum, item) => sum + (item.kind === 'audio' ? item.audio.length : 0),
      0
    )
  }

  send(command: string): void {
    this.socket.send(command)
  }

  audio(bytes = 3200): void {
    const chunk = Buffer.alloc(bytes)
    for (let i = 0; i < bytes / 2; i++)
      chunk.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2)
    this.socket.send(chunk, { binary: true })
  }

  /** StartSpeaking, `chunks` audio chunks, StopSpeaking. */
  utterance(chunks = 3): void {
    this.send('StartSpeaking')
    for (let i = 0; i < chunks; i++) this.audio()
    this.send('StopSpeaking')
  }

  /** Resolves when `predicate` holds (checked after each received frame). */
  waitFor(predicate: (client: this) => boolean, timeoutMs = 5000): Promise<void> {
    if (predicate(this)) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== check)
        reject(new Error(`waitFor timed out; received: ${this.flow.join(', ')}`))
      }, timeoutMs)
      const check = () => {
        if (!predicate(this)) return
        clearTimeout(timer)
        this.waiters = this.waiters.filter((waiter) => waiter !== check)
        resolve()
      }
      this.waiters.push(check)
    })
  }

  waitForClose(timeoutMs = 5000): Promise<void> {
    return this.waitFor((client) => client.closeCode !== undefined, timeoutMs)
  }

  /** Waits until nothing was received for `quietMs`. */
  async settle(quietMs = 60): Promise<void> {
    let seen = -1
    while (seen !== this.received.length) {
      seen = this.received.length
      await new Promise((resolve) => setTimeout(resolve, quietMs))
    }
  }

  close(): void {
    this.socket.close()
  }

  private notify() {
    for (const waiter of [...this.waiters]) waiter()
  }
}
