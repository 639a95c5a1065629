import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import type { AddressInfo, Server, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import type { WebSocket as ServerSocket } from 'ws'
import { Connection } from './connection.js'
import type { ConnectionEvents, ConnectionOptions } from './connection.js'
import type { MicdropWebSocket } from './types.js'

// The connection against a real `ws` server on 127.0.0.1, with `ws`'s client as the WebSocket

interface Peer {
  socket: ServerSocket
  /** Frames received, text as strings and binary as Buffers, in order. */
  received: Array<string | Buffer>
  closed: Promise<number>
}

async function startServer(onConnection: (peer: Peer) => void = () => {}) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const peers: Peer[] = []
  server.on('connection', (socket) => {
    const received: Peer['received'] = []
    socket.on('message', (data, isBinary) =>
      received.push(isBinary ? (data as Buffer) : data.toString())
    )
    const closed = new Promise<number>((resolve) => socket.once('close', resolve))
    const peer = { socket, received, closed }
    peers.push(peer)
    onConnection(peer)
  })
  const { port } = server.address() as AddressInfo
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `ws://127.0.0.1:${port}/call`, peers }
}

/** A TCP server that accepts connections and never answers the WebSocket handshake. */
async function startSilentServer() {
  const sockets: Socket[] = []
  const closed = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.push(socket)
    socket.on('close', () => closed.add(socket))
    socket.resume()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `ws://127.0.0.1:${port}/call`, sockets, closed }
}

/** An HTTP server that answers every WebSocket handshake with 503 (a server down for a while). */
async function startRefusingServer() {
  let attempts = 0
  const server = createHttpServer((_, response) => response.end())
  server.on('upgrade', (_, socket) => {
    attempts++
    socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  cleanups.push(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `ws://127.0.0.1:${port}/call`, attempts: () => attempts }
}

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A connection with fast reconnection, and everything it emitted, in order. */
function connect(url: string, options: Partial<ConnectionOptions> = {}) {
  const connection = new Connection({
    url,
    params: { token: 'secret' },
    createWebSocket: (url) => new WebSocket(url) as unknown as MicdropWebSocket,
    random: () => 0.5,
    ...options,
    reconnect: { delayMs: 20, maxDelayMs: 100, ...options.reconnect },
  })
  const events: Array<[keyof ConnectionEvents, ...unknown[]]> = []
  for (const name of ['Open', 'Audio', 'Text', 'Reconnecting', 'Close'] as const) {
    connection.on(name, (...args: unknown[]) => events.push([name, ...args]))
  }
  cleanups.push(() => connection.close())
  connection.open()
  return { connection, events }
}

const names = (events: Array<[string, ...unknown[]]>) => events.map(([name]) => name)

async function until(check: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('Connection', () => {
  it('opens, sends the params as the first frame, then carries frames both ways', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url)
    await until(() => connection.isOpen)
    connection.send('StartSpeaking')
    connection.send(new Int16Array([1, -1]).buffer)
    await until(() => server.peers[0]?.received.length === 3)
    const [params, command, audio] = server.peers[0]!.received
    expect(params).toBe(JSON.stringify({ token: 'secret' }))
    expect(command).toBe('StartSpeaking')
    expect(Array.from(new Int16Array(new Uint8Array(audio as Buffer).buffer))).toEqual([1, -1])

    server.peers[0]!.socket.send('Message {"role":"assistant","content":"Hi"}')
    server.peers[0]!.socket.send(Buffer.from(new Int16Array([7, 8]).buffer))
    await until(() => events.length === 3)
    expect(events[0]).toEqual(['Open'])
    expect(events[1]).toEqual(['Text', 'Message {"role":"assistant","content":"Hi"}'])
    const [name, data] = events[2]!
    expect(name).toBe('Audio')
    expect(Array.from(new Int16Array(data as ArrayBuffer))).toEqual([7, 8])
  })

  it('reconnects after an abnormal close and sends the params again', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url)
    await until(() => connection.isOpen)
    server.peers[0]!.socket.terminate()
    await until(() => connection.isReconnecting)
    expect(connection.isOpen).toBe(false)
    await until(() => server.peers.length === 2 && connection.isOpen)
    expect(connection.isReconnecting).toBe(false)
    await until(() => server.peers[1]!.received.length === 1)
    expect(server.peers[1]!.received).toEqual([JSON.stringify({ token: 'secret' })])
    expect(events).toEqual([['Open'], ['Reconnecting', 1, 20], ['Open']])
  })

  it('reconnects after a server restart close (1012)', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url)
    await until(() => connection.isOpen)
    server.peers[0]!.socket.close(1012)
    await until(() => server.peers.length === 2 && connection.isOpen)
    expect(names(events)).toEqual(['Open', 'Reconnecting', 'Open'])
    // The params (a conversation id) go again: the instance that answers resumes the call.
    await until(() => server.peers[1]!.received.length === 1)
    expect(server.peers[1]!.received).toEqual([JSON.stringify({ token: 'secret' })])
  })

  it('backs off between attempts and gives up after maxAttempts with the last close', async () => {
    const server = await startRefusingServer()
    const { connection, events } = connect(server.url, { reconnect: { maxAttempts: 3 } })
    await until(() => names(events).includes('Close'))
    expect(server.attempts()).toBe(4)
    expect(events).toEqual([
      ['Reconnecting', 1, 20],
      ['Reconnecting', 2, 40],
      ['Reconnecting', 3, 80],
      ['Close', 1006, ''],
    ])
    expect(connection.isReconnecting).toBe(false)
    await sleep(150)
    expect(server.attempts()).toBe(4)
  })

  it('an attempt that opens resets the count: each drop gets maxAttempts again', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url, { reconnect: { maxAttempts: 1 } })
    for (let i = 0; i < 3; i++) {
      await until(() => server.peers.length === i + 1 && connection.isOpen)
      server.peers[i]!.socket.terminate()
      await until(() => connection.isReconnecting)
    }
    await until(() => server.peers.length === 4 && connection.isOpen)
    expect(names(events).filter((name) => name === 'Close')).toEqual([])
  })

  it('does not reconnect after a normal close by the server', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url)
    await until(() => connection.isOpen)
    server.peers[0]!.socket.close(1000)
    await until(() => names(events).includes('Close'))
    await sleep(100)
    expect(events).toEqual([['Open'], ['Close', 1000, '']])
    expect(server.peers).toHaveLength(1)
  })

  it('does not reconnect when the server refuses the call (4401), and gives its reason', async () => {
    const server = await startServer((peer) => peer.socket.close(4401, 'Invalid token'))
    const { events } = connect(server.url)
    await until(() => names(events).includes('Close'))
    await sleep(100)
    expect(events).toEqual([['Open'], ['Close', 4401, 'Invalid token']])
    expect(server.peers).toHaveLength(1)
  })

  it('close() ends the call: the server sees 1000, nothing reconnects or is emitted', async () => {
    const server = await startServer()
    const { connection, events } = connect(server.url)
    await until(() => connection.isOpen)
    connection.close()
    expect(await server.peers[0]!.closed).toBe(1000)
    connection.send('StartSpeaking')
    await sleep(100)
    expect(events).toEqual([['Open']])
    expect(server.peers).toHaveLength(1)
    expect(server.peers[0]!.received).toEqual([JSON.stringify({ token: 'secret' })])
  })

  it('close() while reconnecting cancels the next attempt', async () => {
    const server = await startServer()
    const { connection } = connect(server.url, { reconnect: { delayMs: 50 } })
    await until(() => connection.isOpen)
    server.peers[0]!.socket.terminate()
    await until(() => connection.isReconnecting)
    connection.close()
    expect(connection.isReconnecting).toBe(false)
    await sleep(150)
    expect(server.peers).toHaveLength(1)
  })

  it('times out a socket that does not open, closes it and tries again', async () => {
    const server = await startSilentServer()
    const { events } = connect(server.url, {
      reconnect: { connectionTimeoutMs: 50, maxAttempts: 1 },
    })
    await until(() => names(events).includes('Close'))
    expect(events).toEqual([
      ['Reconnecting', 1, 20],
      ['Close', 1006, 'Connection timeout'],
    ])
    expect(server.sockets).toHaveLength(2)
    // The timed-out sockets were closed, not left to open later
    await until(() => server.closed.size === 2)
  })

  it('close() while the socket is still connecting ends quietly', async () => {
    const server = await startSilentServer()
    const { connection, events } = connect(server.url)
    await until(() => server.sockets.length === 1)
    connection.close()
    await sleep(100)
    expect(events).toEqual([])
    expect(server.sockets).toHaveLength(1)
  })

  it('treats a URL the WebSocket refuses like a failed attempt', async () => {
    const { events } = connect('not a url', { reconnect: { maxAttempts: 1 } })
    await until(() => names(events).includes('Close'))
    expect(names(events)).toEqual(['Reconnecting', 'Close'])
    expect(events.at(-1)![1]).toBe(1006)
  })
})
