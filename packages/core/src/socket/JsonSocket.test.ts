import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { ProviderError, type ProviderErrorDetails } from '../retry/ProviderError.js'
import {
  JsonSocket,
  describeSocketEnd,
  socketEndError,
  type JsonSocketEnd,
  type JsonSocketOptions,
} from './JsonSocket.js'

const servers: { close(): void }[] = []
const sockets: JsonSocket<any>[] = []

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.dispose()
  for (const server of servers.splice(0)) server.close()
})

/** A ws server on 127.0.0.1 that records what it receives and lets the test answer. */
async function wsServer(
  onConnection: (client: WebSocket, received: string[]) => void = () => {}
): Promise<{ url: string; received: string[] }> {
  const received: string[] = []
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push({ close: () => server.close() })
  server.on('connection', (client) => {
    client.on('message', (data) => received.push(String(data)))
    onConnection(client, received)
  })
  await new Promise((resolve) => server.once('listening', resolve))
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

/** An HTTP server that answers every request (upgrades included) with `status` and `body`. */
async function refusingServer(status: number, body: string): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(status).end(body))
  servers.push({ close: () => server.close() })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function open<M extends object = Record<string, unknown>>(
  url: string,
  options: Partial<JsonSocketOptions<M>> = {}
) {
  const messages: M[] = []
  const logs: unknown[][] = []
  const ends: JsonSocketEnd[] = []
  let resolveEnd!: (end: JsonSocketEnd) => void
  const ended = new Promise<JsonSocketEnd>((resolve) => (resolveEnd = resolve))
  const socket = new JsonSocket<M>(new WebSocket(url), {
    connectionTimeoutMs: 2000,
    onMessage: (message) => messages.push(message),
    onEnd: (end) => {
      ends.push(end)
      resolveEnd(end)
    },
    log: (...message) => logs.push(message),
    ...options,
  })
  sockets.push(socket)
  return { socket, messages, logs, ends, ended }
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}

describe('JsonSocket', () => {
  it('sends messages queued before it opens once, in order, then directly', async () => {
    const { url, received } = await wsServer()
    const { socket } = open(url)
    socket.send({ n: 1 })
    socket.send({ n: 2 })
    await until(() => socket.wasOpened)
    socket.send({ n: 3 })
    await until(() => received.length === 3)
    expect(received.map((text) => JSON.parse(text).n)).toEqual([1, 2, 3])
  })

  it('drops messages sent before it opens with queueBeforeOpen: false', async () => {
    const { url, received } = await wsServer()
    const { socket } = open(url, { queueBeforeOpen: false })
    socket.send({ n: 1 })
    await until(() => socket.wasOpened)
    socket.send({ n: 2 })
    await until(() => received.length === 1)
    expect(JSON.parse(received[0]!)).toEqual({ n: 2 })
  })

  it('delivers JSON objects and logs and ignores what is not one', async () => {
    const { url } = await wsServer((client) => {
      for (const text of ['not json', '[1]', '42', '{"type":"a"}']) client.send(text)
    })
    const { messages, logs } = open(url)
    await until(() => messages.length === 1)
    expect(messages).toEqual([{ type: 'a' }])
    expect(logs).toHaveLength(3)
  })

  it('ignores objects that isMessage rejects', async () => {
    const { url } = await wsServer((client) => {
      client.send('{"no":"type"}')
      client.send('{"type":"ok"}')
    })
    const { messages, logs } = open<{ type: string }>(url, {
      isMessage: (value): value is { type: string } => typeof value.type === 'string',
    })
    await until(() => messages.length === 1)
    expect(messages).toEqual([{ type: 'ok' }])
    expect(logs).toHaveLength(1)
  })

  it('logs a listener that throws and keeps the connection', async () => {
    const { url } = await wsServer((client) => {
      client.send('{"n":1}')
      client.send('{"n":2}')
    })
    const seen: unknown[] = []
    const { socket, logs, ends } = open(url, {
      onMessage: (message) => {
        seen.push(message)
        throw new Error('listener bug')
      },
    })
    await until(() => seen.length === 2)
    expect(logs).toHaveLength(2)
    expect(ends).toEqual([])
    expect(socket.isOver).toBe(false)
  })

  it('reports a refused upgrade with its status and body', async () => {
    const url = await refusingServer(401, '{"detail":"invalid key"}')
    const { ended } = open(url)
    const end = await ended
    expect(end).toMatchObject({ kind: 'refused', status: 401, body: '{"detail":"invalid key"}' })
    expect(describeSocketEnd(end, (body) => JSON.parse(body).detail)).toBe('HTTP 401 invalid key')
  })

  it("turns an end into the provider's error: its text, status, close code and cause", () => {
    const acme = (message: string, details: ProviderErrorDetails) =>
      new ProviderError('AcmeSTT', message, details)
    const refused = socketEndError(
      { kind: 'refused', status: 401, statusMessage: 'Unauthorized', body: '{"message":"no key"}' },
      acme
    )
    expect(refused).toMatchObject({ message: 'AcmeSTT: HTTP 401 no key', status: 401 })
    const closed = socketEndError({ kind: 'closed', code: 1011, reason: '' }, acme)
    expect(closed).toMatchObject({
      message: 'AcmeSTT: connection closed (code 1011)',
      closeCode: 1011,
    })
    const reset = new Error('read ECONNRESET')
    expect(socketEndError({ kind: 'error', error: reset }, acme).cause).toBe(reset)
    const timeout = socketEndError({ kind: 'timeout', timeoutMs: 50 }, acme, (end) =>
      end.kind === 'timeout' ? `no session after ${end.timeoutMs} ms` : describeSocketEnd(end)
    )
    expect(timeout.message).toBe('AcmeSTT: no session after 50 ms')
    const own = acme('session refused', {})
    expect(socketEndError({ kind: 'ended', reason: own }, acme)).toBe(own)
  })

  it('reports a server close with its code and reason, once', async () => {
    const { url } = await wsServer((client) => client.close(4001, 'bye'))
    const { ended, ends } = open(url)
    const end = await ended
    expect(end).toEqual({ kind: 'closed', code: 4001, reason: 'bye' })
    expect(describeSocketEnd(end)).toBe('connection closed (code 4001: bye)')
    await new Promise((r) => setTimeout(r, 50))
    expect(ends).toHaveLength(1)
  })

  it('reports a connection error', async () => {
    const url = await refusingServer(200, '')
    const port = new URL(url).port
    servers.splice(0).forEach((server) => server.close())
    await new Promise((r) => setTimeout(r, 20))
    const { ended } = open(`ws://127.0.0.1:${port}`)
    const end = await ended
    expect(end.kind).toBe('error')
    expect(describeSocketEnd(end)).toMatch(/^connection failed: /)
  })

  it('times out when the server never answers the upgrade', async () => {
    const server = createServer(() => {})
    servers.push({ close: () => server.closeAllConnections() })
    servers.push({ close: () => server.close() })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
    const { ended, ends } = open(url, { connectionTimeoutMs: 100 })
    expect(await ended).toEqual({ kind: 'timeout', timeoutMs: 100 })
    expect(describeSocketEnd(ends[0]!)).toBe('could not connect within 100 ms')
  })

  it('with readyOnOpen: false, times out until markReady', async () => {
    const { url } = await wsServer()
    const first = open(url, { connectionTimeoutMs: 150, readyOnOpen: false })
    await until(() => first.socket.wasOpened)
    expect((await first.ended).kind).toBe('timeout')

    const second = open(url, { connectionTimeoutMs: 150, readyOnOpen: false })
    await until(() => second.socket.wasOpened)
    second.socket.markReady()
    await new Promise((r) => setTimeout(r, 250))
    expect(second.ends).toEqual([])
    expect(second.socket.wasReady).toBe(true)
  })

  it('end() reports the reason once; dispose() reports nothing and stops sending', async () => {
    const { url, received } = await wsServer()
    const a = open(url)
    await until(() => a.socket.wasOpened)
    a.socket.end('protocol error')
    a.socket.end('again')
    expect(a.ends).toEqual([{ kind: 'ended', reason: 'protocol error' }])
    a.socket.send({ late: true })

    const b = open(url)
    await until(() => b.socket.wasOpened)
    b.socket.dispose()
    b.socket.send({ late: true })
    await new Promise((r) => setTimeout(r, 50))
    expect(b.ends).toEqual([])
    expect(b.socket.isOver).toBe(true)
    expect(received).toEqual([])
  })
})
