// OpenaiRealtime as a whole call's voice: a MicdropServer given `realtime`, a protocol client over
// a real WebSocket, the fake Realtime API behind. What the client sees is what a pipeline gives;
// what the fake's conversation holds is what the model remembers.
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import {
  Logger,
  RealtimeAgent,
  type ModelCallReport,
  type RealtimeAgentOptions,
} from '@openmic/core'
import {
  encodeClientHello,
  encodePlayed,
  parseServerMessage,
  type MicdropConversationItem,
  type MicdropServerMessage,
} from '@openmic/core/protocol'
import { MemoryConversationStore, MicdropServer, type MicdropServerOptions } from '@openmic/server'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '@openmic/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { OpenaiRealtime } from '../src/index.js'

const stops: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
})

/** An openmic client (it says `Hello`): the frames it received, its audio, and its turns. */
class Client {
  readonly frames: MicdropServerMessage[] = []
  audioBytes = 0
  private readonly waiters = new Set<() => void>()

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, binary) => {
      if (binary) this.audioBytes += data.length
      else this.frames.push(parseServerMessage(data.toString()))
      for (const waiter of [...this.waiters]) waiter()
    })
  }

  count(type: string, role?: string): number {
    return this.frames.filter(
      (frame) =>
        frame.type === type && (!role || (frame.type === 'Message' && frame.item.role === role))
    ).length
  }

  /** The utterance: StartSpeaking, `ms` of audio in 100 ms chunks, StopSpeaking. */
  say(ms = 500): void {
    this.socket.send('StartSpeaking')
    const chunk = Buffer.alloc(3200)
    for (let i = 0; i < 1600; i++) chunk.writeInt16LE(Math.round(6000 * Math.sin(i / 6)), i * 2)
    for (let sent = 0; sent < ms; sent += 100) this.socket.send(chunk)
    this.socket.send('StopSpeaking')
  }

  waitFor(done: () => boolean, timeoutMs = 5000): Promise<void> {
    if (done()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check)
        const seen = this.frames.map((frame) => frame.type).join(', ')
        reject(new Error(`timed out; frames: ${seen}`))
      }, timeoutMs)
      const check = () => {
        if (!done()) return
        clearTimeout(timer)
        this.waiters.delete(check)
        resolve()
      }
      this.waiters.add(check)
    })
  }
}

async function call(
  options: { agent?: Partial<RealtimeAgentOptions>; server?: Partial<MicdropServerOptions> } = {}
) {
  const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
  stops.push(() => fake.close())
  const items: MicdropConversationItem[] = []
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(wss, 'listening')
  stops.push(() => new Promise<void>((resolve) => wss.close(() => resolve())))
  let agent: RealtimeAgent | undefined
  wss.on('connection', (socket) => {
    agent = new RealtimeAgent({
      model: new OpenaiRealtime({ apiKey: 'sk-test', baseURL: fake.baseURL }),
      systemPrompt: 'You are a test assistant.',
      ...options.agent,
    })
    const server = new MicdropServer(socket, {
      realtime: agent,
      ...(process.env.DEBUG_CALL ? { logger: new Logger('call') } : {}),
      ...options.server,
    })
    server.on('Message', (item) => items.push(item))
  })
  const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`)
  // Listening before it opens: the server's first frame may come in the same read as the handshake
  const client = new Client(socket)
  await once(socket, 'open')
  stops.push(() => socket.terminate())
  socket.send(encodeClientHello({ captions: true }))
  return { fake, client, items, agent: () => agent! }
}

/** The model's memory as `role:text` lines (function items by their type). */
const memory = (fake: FakeOpenaiRealtime, connection?: number) =>
  fake.conversation(connection).map((item) => `${item.role ?? item.type}:${item.text}`)

describe('a call with OpenaiRealtime', () => {
  it('a turn answered with the model audio, in one response asked at the commit', async () => {
    const { fake, client, items } = await call()
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    fake.replyTranscript('What time is it?', { delayMs: 50 })
    fake.replyResponse('It is noon.', { firstAudioMs: 100, msPerChar: 20 })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 1)
    expect(client.audioBytes).toBe('It is noon.'.length * 20 * 32)
    expect(items).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    expect(fake.responses).toHaveLength(1)
    expect(memory(fake)).toEqual(['user:What time is it?', 'assistant:It is noon.'])
    expect(fake.sessionUpdates[0]).toMatchObject({ instructions: 'You are a test assistant.' })
  })

  it('barge-in: the answer is flagged interrupted and truncated in the model at the heard ms', async () => {
    const { fake, client, items } = await call()
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    const answer = 'One two three four five six seven eight.'
    fake.replyTranscript('Count for me.')
    fake.replyResponse(answer, { msPerChar: 20 })
    client.say()
    await client.waitFor(() => client.audioBytes === answer.length * 20 * 32)
    fake.replyTranscript('Stop.')
    fake.replyResponse('Sure.', { msPerChar: 20 })
    client.socket.send(encodePlayed({ ms: 300 }))
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 2)
    const cut = items.find((item) => item.role === 'assistant')!
    expect(cut).toMatchObject({
      metadata: { interrupted: true, heardMs: 300, fullContent: answer },
    })
    expect(answer.startsWith(cut.content!)).toBe(true)
    const spoken = fake.conversation().filter((item) => item.source === 'speech')
    expect(spoken.map((item) => item.truncatedAtMs)).toEqual([300, undefined])
    // The second response saw the cut answer, not the whole
    expect(fake.responses[1]!.conversation[1]).toMatchObject({ role: 'assistant', audioMs: 300 })
  })

  it('a tool call and autoEndCall: the items of a pipeline, the goodbye, then EndCall', async () => {
    const { fake, client, items } = await call({ agent: { autoEndCall: true } })
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    fake.replyTranscript('Goodbye!')
    fake.replyResponse('', { toolCalls: [{ name: 'end_call' }] })
    fake.replyResponse('Bye, take care.', { msPerChar: 10 })
    client.say()
    await client.waitFor(() => client.count('EndCall') === 1)
    expect(items.map((item) => item.role)).toEqual([
      'user',
      'tool_call',
      'tool_result',
      'assistant',
    ])
    expect(fake.responses[1]!.conversation.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ])
    expect(memory(fake).at(-1)).toBe('assistant:Bye, take care.')
  })

  it('each response of an answer is a model call reported with the tokens the API counted', async () => {
    const { fake, client, agent } = await call()
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    agent().addTool({ name: 'get_time', description: 'The time', execute: () => '12:00' })
    const reports: ModelCallReport[] = []
    agent().on('ModelCallEnd', (report) => reports.push(report))
    fake.replyTranscript('What time is it?')
    fake.replyResponse('', {
      toolCalls: [{ name: 'get_time' }],
      usage: { input: { text: 200, audio: 30 }, output: { text: 15, audio: 0 } },
    })
    fake.replyResponse('It is noon.', {
      msPerChar: 10,
      usage: { input: { text: 240, audio: 30, cached: 192 }, output: { text: 5, audio: 44 } },
    })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 1)
    expect(
      reports.map(({ step, provider, outcome, toolCalls, usage }) => ({
        step,
        provider,
        outcome,
        toolCalls,
        usage,
      }))
    ).toEqual([
      {
        step: 0,
        provider: 'openai',
        outcome: 'completed',
        toolCalls: 1,
        usage: { inputTokens: 230, outputTokens: 15 },
      },
      {
        step: 1,
        provider: 'openai',
        outcome: 'completed',
        toolCalls: 0,
        usage: { inputTokens: 270, outputTokens: 49 },
      },
    ])
  })

  it('a resumed conversation: the stored history is created in the session before the user audio', async () => {
    const store = new MemoryConversationStore()
    await store.append('c1', 0, { type: 'item', item: { role: 'user', content: 'I am Ada.' } })
    await store.append('c1', 1, { type: 'item', item: { role: 'assistant', content: 'Hi Ada.' } })
    const { fake, client } = await call({ server: { store, conversationId: 'c1' } })
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    fake.replyTranscript('Who am I?')
    fake.replyResponse('You are Ada.', { msPerChar: 10 })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 1)
    expect(memory(fake)).toEqual([
      'user:I am Ada.',
      'assistant:Hi Ada.',
      'user:Who am I?',
      'assistant:You are Ada.',
    ])
  })

  it('a dropped session: the next turn goes to a new session, seeded with the call so far', async () => {
    const { fake, client } = await call()
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    fake.replyTranscript('One.')
    fake.replyResponse('A.', { msPerChar: 10 })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 1)
    fake.resetConnections()
    await fake.waitFor(() => fake.connections[0]!.closed)
    fake.replyTranscript('Two.')
    fake.replyResponse('B.', { msPerChar: 10 })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 2)
    expect(fake.connections).toHaveLength(2)
    expect(memory(fake, 1)).toEqual(['user:One.', 'assistant:A.', 'user:Two.', 'assistant:B.'])
  })

  it('a refused session: the turn is skipped (SkipAnswer), and the next one is answered', async () => {
    const { fake, client } = await call()
    await client.waitFor(() => client.count('SkipAnswer') === 1)
    await fake.waitForConnections(1)
    fake.resetConnections()
    fake.rejectConnection(500)
    client.say()
    await client.waitFor(() => client.count('SkipAnswer') === 2)
    fake.replyTranscript('Hello?')
    fake.replyResponse('Hello!', { msPerChar: 10 })
    client.say()
    await client.waitFor(() => client.count('Message', 'assistant') === 1)
    expect(fake.handshakes.map((handshake) => handshake.status)).toEqual([101, 500, 101])
  })
})
