import { MockAgent, MockSTT, MockTTS, type MicdropConversationItem } from '@openmic/core'
import { once } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import {
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  handleError,
  waitForParams,
} from '../src/index.js'
import { closeAfterEach, finalItems, TestClient, startServer, until } from './harness.js'

const cleanup = closeAfterEach()

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
  cleanup.stop = server.close
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
    expect(client.flow.slice(0, 3)).toEqual(['SkipAnswer', 'Message:user', 'audio'])
    expect(client.log.filter((entry) => entry !== 'audio')).toEqual([
      'SkipAnswer',
      'Message:user',
      'Message:assistant',
    ])
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
    cleanup.stop = server.close
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
      await once(socket, 'close')
      leftovers.push(socket.listenerCount('message') + socket.listenerCount('close') - before)
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    client.send('{}')
    client.utterance() // held, then dropped with the socket
    await client.waitForClose()
    await vi.waitFor(() => expect(leftovers).toHaveLength(1))
    expect(leftovers).toEqual([0])
  })

  it('frames behind the params wait while the app checks them, then reach the call in order', async () => {
    const server = await startServer(async (socket) => {
      const params = await waitForParams(socket, validate)
      await new Promise((resolve) => setTimeout(resolve, 50)) // a token check, a database
      new MicdropServer(socket, {
        agent: new MockAgent({ answers: ['One.', 'Two.'] }),
        stt: new MockSTT({ utterances: ['first', 'second'] }),
        tts: new MockTTS(),
        firstMessage: `Hello ${params.token}`,
      })
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    client.send(JSON.stringify({ token: 'secret' }))
    client.utterance(1)
    await new Promise((resolve) => setTimeout(resolve, 10)) // still before the call exists
    client.utterance(1)
    const contents = () =>
      client
        .texts('Message')
        .map((m) => (m.type === 'Message' ? `${m.item.role}: ${m.item.content}` : ''))
    await client.waitFor(
      () =>
        contents().at(-1)?.startsWith('assistant') === true && contents().join().includes('second')
    )
    // The call opened with the params (its first message played), then the frames behind them
    // came, in order: the user spoke over the greeting before a word of it was heard
    expect(client.log[0]).toBe('audio')
    expect(contents().some((line) => line.includes('Hello secret'))).toBe(false)
    // One user message or two, depending on when the first transcript completed: in order.
    const said = contents().filter((line) => line.startsWith('user'))
    expect(said.map((line) => line.slice('user: '.length)).join(' ')).toBe('first second')
  })

  it("the app's own message handler gets the frames behind the params, in order", async () => {
    const frames: string[] = []
    const server = await startServer(async (socket) => {
      await waitForParams(socket, (p) => p)
      socket.on('message', (data, isBinary) => frames.push(isBinary ? 'audio' : String(data)))
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    client.send('{}')
    client.utterance(2)
    client.send('Mute')
    await vi.waitFor(() => expect(frames).toHaveLength(5))
    expect(frames).toEqual(['StartSpeaking', 'audio', 'audio', 'StopSpeaking', 'Mute'])
    expect(server.sockets[0]!.isPaused).toBe(false)
  })

  it('a MicdropServer on a socket that never went through waitForParams is the same whatever ran before', async () => {
    const agents: MockAgent[] = []
    const kept: MicdropConversationItem[][] = []
    const plainCall = (socket: WebSocket) => {
      const agent = new MockAgent({ answers: ['Fine.'] })
      agents.push(agent)
      const call = new MicdropServer(socket, {
        agent,
        stt: new MockSTT({ utterances: ['hi'] }),
        tts: new MockTTS(),
      })
      kept.push(finalItems(call))
    }
    // In turn: a plain call, a refused one with frames held, one with params, a plain call again.
    const handlers = [
      plainCall,
      async (socket: WebSocket) => {
        await waitForParams(socket, validate).catch((error) => handleError(socket, error))
      },
      async (socket: WebSocket) => {
        await waitForParams(socket, validate)
        plainCall(socket)
      },
      plainCall,
    ]
    const server = await startServer((socket) => handlers.shift()!(socket))
    cleanup.stop = server.close
    const flows: string[][] = []
    for (const params of [undefined, { token: 'wrong' }, { token: 'secret' }, undefined]) {
      const client = await TestClient.connect(server.url)
      if (params) client.send(JSON.stringify(params))
      client.utterance()
      if (params?.token === 'wrong') await client.waitForClose()
      else {
        await client.waitFor((c) => c.count('Message:assistant') === 1)
        // Heard to its end before the client leaves
        await until(() => kept.at(-1)?.length === 2)
      }
      await client.settle(30)
      flows.push(client.flow)
      client.close()
    }
    const call = ['SkipAnswer', 'Message:user', 'audio', 'Message:assistant']
    expect(flows).toEqual([call, [], call, call])
    expect(agents.map((agent) => agent.conversation.map((item) => item.role))).toEqual([
      ['system', 'user', 'assistant'],
      ['system', 'user', 'assistant'],
      ['system', 'user', 'assistant'],
    ])
    expect(server.sockets[3]!.isPaused).toBe(false)
  })
})
