import type { AddressInfo } from 'node:net'
import type { MicdropServer } from '@openmic/server'
import { afterEach, expect, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { MicdropClient } from '../src/index.js'
import type { MicdropWebSocket } from '../src/client/types.js'
import { FakeMic, FakeSpeaker, memoryStorage } from './fakes.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * A client on fake devices calling a real server on 127.0.0.1 (`ws` on both sides): `serve`
 * builds the MicdropServer of each connection. Resolves once the call is open and the server's
 * opening `SkipAnswer` came; everything is closed after the test.
 */
export async function callRealServer(serve: (socket: WebSocket) => MicdropServer) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const servers: MicdropServer[] = []
  wss.on('connection', (socket) => servers.push(serve(socket)))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate()
        wss.close(() => resolve())
      })
  )
  const mic = new FakeMic()
  const speaker = new FakeSpeaker()
  /** The server's last `Hello`, as sent. */
  let serverHello = ''
  const client = new MicdropClient(
    { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` },
    {
      mic,
      speaker,
      storage: memoryStorage(),
      random: () => 0.5,
      createWebSocket: (url) => {
        const socket = new WebSocket(url)
        socket.on('message', (data, isBinary) => {
          if (!isBinary && data.toString().startsWith('Hello ')) serverHello = data.toString()
        })
        return socket as unknown as MicdropWebSocket
      },
    }
  )
  cleanups.push(() => client.stop())
  await client.start()
  await vi.waitFor(() => expect(client.isProcessing).toBe(false)) // the opening SkipAnswer
  return { client, mic, speaker, server: () => servers[0]!, serverHello: () => serverHello }
}

/** The server's conversation as the client sees it: without the system prompt. */
export const serverSide = (server: MicdropServer) =>
  server.agent.conversation.filter((item) => item.role !== 'system')
