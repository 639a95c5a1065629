import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { afterEach, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import {
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  handleError,
  waitForParams,
} from '../src/index.js'
import { TestClient, startServer } from './harness.js'

let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  stop = undefined
})

interface Params {
  token: string
  lang?: string
}

function validate(params: any): Params {
  if (typeof params?.token !== 'string') throw new Error('token is required')
  if (params.token !== 'secret')
    throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
  return { token: params.token, lang: params.lang }
}

/** A server that authenticates with waitForParams before building anything for the call. */
async function authServer(timeoutMs = 3000) {
  const built: string[] = []
  const received: Params[] = []
  const sockets: WebSocket[] = []
  const server = await startServer(async (socket) => {
    sockets.push(socket)
    try {
      const params = await waitForParams(socket, validate, { timeoutMs })
      received.push(params)
      built.push('call')
      new MicdropServer(socket, {
        agent: new MockAgent({ answers: [`Hello in ${params.lang}`] }),
        stt: new MockSTT(),
        tts: new MockTTS(),
      })
    } catch (error) {
      handleError(socket, error)
    }
  })
  stop = server.close
  return { ...server, built, received, sockets }
}

describe('waitForParams and handleError', () => {
  it('reads valid params; frames sent right behind them are not lost', async () => {
    const server = await authServer()
    const client = await TestClient.connect(server.url)
    client.send(JSON.stringify({ token: 'secret', lang: 'fr' }))
    client.utterance() // same TCP burst as the params
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(server.received).toEqual([{ token: 'secret', lang: 'fr' }])
    expect(client.flow).toEqual(['SkipAnswer', 'Message:user', 'audio', 'Message:assistant'])
    expect(server.sockets[0]!.isPaused).toBe(false)
  })

  it('closes with 4400 "Missing params" when none come in time', async () => {
    const server = await authServer(100)
    const client = await TestClient.connect(server.url)
    await client.waitForClose()
    expect([client.closeCode, client.closeReason]).toEqual([4400, 'Missing params'])
    expect(server.built).toEqual([])
  })

  it('closes with 4400 "Invalid params" for a non-JSON, binary or rejected frame', async () => {
    const server = await authServer()
    for (const send of [
      (c: TestClient) => c.send('not json'),
      (c: TestClient) => c.audio(),
      (c: TestClient) => c.send(JSON.stringify({ lang: 'fr' })),
    ]) {
      const client = await TestClient.connect(server.url)
      send(client)
      await client.waitForClose()
      expect([client.closeCode, client.closeReason]).toEqual([4400, 'Invalid params'])
    }
    expect(server.built).toEqual([])
  })

  it('closes with the MicdropError code thrown by validate (4401), before any call work', async () => {
    const server = await authServer()
    const client = await TestClient.connect(server.url)
    client.send(JSON.stringify({ token: 'wrong' }))
    client.utterance()
    await client.waitForClose()
    expect([client.closeCode, client.closeReason]).toEqual([4401, 'Invalid token'])
    expect(server.built).toEqual([])
    expect(client.received).toEqual([])
  })

  it('handleError closes with 4404 for NotFound, 1011 for other errors, and adds no listener', async () => {
    const errors = [
      new MicdropError(MicdropErrorCode.NotFound, 'No such conversation'),
      new Error('db down'),
    ]
    const counts: number[] = []
    const server = await startServer((socket) => {
      const before = socket.listenerCount('message') + socket.listenerCount('close')
      handleError(socket, errors.shift())
      handleError(socket, new Error('twice is harmless'))
      counts.push(socket.listenerCount('message') + socket.listenerCount('close') - before)
    })
    stop = server.close
    const first = await TestClient.connect(server.url)
    await first.waitForClose()
    const second = await TestClient.connect(server.url)
    await second.waitForClose()
    expect([first.closeCode, first.closeReason]).toEqual([4404, 'No such conversation'])
    expect([second.closeCode, second.closeReason]).toEqual([1011, 'Internal error'])
    expect(counts).toEqual([0, 0])
  })

  it('leaves no listener or timer once the params are read', async () => {
    const leftovers: number[] = []
    const server = await startServer(async (socket) => {
      const before = socket.listenerCount('message') + socket.listenerCount('close')
      await waitForParams(socket, (p) => p)
      handleError(socket, new MicdropError(MicdropErrorCode.NotFound, 'bye'))
      leftovers.push(socket.listenerCount('message') + socket.listenerCount('close') - before)
    })
    stop = server.close
    const client = await TestClient.connect(server.url)
    client.send('{}')
    await client.waitForClose()
    expect(leftovers).toEqual([0])
  })
})
