import type { AddressInfo } from 'node:net'
import { MockAgent, MockSTT, MockTTS, type MicdropConversation } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { MicdropClient } from '../src/index.js'
import type { MicdropWebSocket } from '../src/client/types.js'
import { FakeMic, FakeSpeaker, memoryStorage } from './fakes.js'

// The client's conversation against a real MicdropServer on 127.0.0.1 (`ws` as the WebSocket),
// with a scripted model that uses the default tools as their descriptions ask.

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The user messages since the last assistant message: what the next answer replies to. */
function pendingUserTexts(conversation: MicdropConversation): string[] {
  const lastAnswer = conversation.findLastIndex((item) => item.role === 'assistant')
  return conversation
    .slice(lastAnswer + 1)
    .flatMap((item) => (item.role === 'user' ? [item.content] : []))
}

async function call(utterances: string[]) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const servers: MicdropServer[] = []
  wss.on('connection', (socket) => {
    const agent = new MockAgent({
      autoSemanticTurn: true,
      autoIgnoreUserNoise: true,
      answers: (conversation) => {
        const texts = pendingUserTexts(conversation)
        const last = texts.at(-1) ?? ''
        if (/^(hmm|uh)\W*$/i.test(last)) return { toolCalls: [{ name: 'ignore_user_noise' }] }
        if (!/[.?!]$/.test(last)) return { toolCalls: [{ name: 'semantic_turn' }] }
        return `Answering: ${texts.join(' / ')}`
      },
    })
    servers.push(
      new MicdropServer(socket, { agent, stt: new MockSTT({ utterances }), tts: new MockTTS() })
    )
  })
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate()
        wss.close(() => resolve())
      })
  )
  const mic = new FakeMic()
  const speaker = new FakeSpeaker()
  const client = new MicdropClient(
    { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` },
    {
      mic,
      speaker,
      storage: memoryStorage(),
      random: () => 0.5,
      createWebSocket: (url) => new WebSocket(url) as unknown as MicdropWebSocket,
    }
  )
  cleanups.push(() => client.stop())
  await client.start()
  await vi.waitFor(() => expect(client.isProcessing).toBe(false)) // the opening SkipAnswer
  /** One utterance through the VAD; resolves once the turn ended (answer or SkipAnswer). */
  const say = async () => {
    mic.frames(10, -20)
    mic.frames(31, -90)
    expect(client.isProcessing).toBe(true)
    await vi.waitFor(() => expect(client.isProcessing).toBe(false))
  }
  /** Plays out what the speaker got until the answer's message arrives: it comes once heard. */
  const hearAnswer = () =>
    vi.waitFor(() => {
      speaker.finish()
      expect(client.conversation.at(-1)?.role).toBe('assistant')
    })
  return { client, say, hearAnswer, server: () => servers[0]! }
}

/** The server's conversation as the client sees it: without the system prompt. */
const serverSide = (server: MicdropServer) =>
  server.agent.conversation.filter((item) => item.role !== 'system')

describe('default tools, seen from the client', () => {
  it('noise: the user message is removed from the conversation on both sides', async () => {
    const { client, say, hearAnswer, server } = await call(['Hmm', 'What time is it?'])
    await say()
    await vi.waitFor(() =>
      expect(client.conversation.map((item) => item.role)).toEqual(['tool_call', 'tool_result'])
    )
    expect(client.conversation).toEqual(serverSide(server()))
    await say()
    await hearAnswer()
    expect(client.conversation).toEqual(serverSide(server()))
    expect(client.conversation.filter((item) => item.role === 'user')).toEqual([
      { role: 'user', content: 'What time is it?' },
    ])
  })

  it('semantic turn: the unfinished sentence is kept and answered with the next utterance', async () => {
    const { client, say, hearAnswer, server } = await call([
      'I would like to',
      'book a table for two.',
    ])
    await say()
    expect(client.conversation.some((item) => item.role === 'assistant')).toBe(false)
    await say()
    await hearAnswer()
    expect(client.conversation).toEqual(serverSide(server()))
    expect(client.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Answering: I would like to / book a table for two.',
    })
  })
})
