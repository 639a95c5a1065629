// A speech-to-speech model as the call's voice (the `realtime` option), through a real WebSocket
// client: the same frames, items and turn rules as with an agent, STT and TTS, and the model's
// own memory (MockRealtime's session conversation) kept to what openmic's conversation says.
import {
  Logger,
  MockAgent,
  MockRealtime,
  MockSTT,
  MockTTS,
  RealtimeAgent,
  type MicdropConversationItem,
  type MicdropConversationMessage,
  type MockRealtimeOptions,
  type RealtimeAgentOptions,
} from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MemoryConversationStore, MicdropServer, type MicdropServerOptions } from '../src/index.js'
import { closeAfterEach, finalItems, startMicdrop, TestClient, until } from './harness.js'

const cleanup = closeAfterEach()

// 28 characters at 10 ms each: 280 ms of speech
const ANSWER = 'One two three four five six.'

interface RealtimeCall {
  mock: MockRealtime
  agent: RealtimeAgent
  options?: Partial<RealtimeAgentOptions>
  server?: Omit<MicdropServerOptions, 'realtime'>
  captions?: boolean
}

async function realtimeCall(
  model: MockRealtimeOptions,
  { options = {}, server: serverOptions = {}, captions = true }: Partial<RealtimeCall> = {}
) {
  const mock = new MockRealtime(model)
  const agent = new RealtimeAgent({ model: mock, systemPrompt: 'Be brief.', ...options })
  const started = await startMicdrop(
    (socket) =>
      new MicdropServer(socket, {
        realtime: agent,
        ...(process.env.DEBUG_CALL ? { logger: new Logger('call') } : {}),
        ...serverOptions,
      })
  )
  cleanup.stop = started.close
  const client = await TestClient.connect(started.url, { captions })
  await client.waitFor(() => started.servers.length === 1)
  const server = started.servers[0]!
  const items = finalItems(server)
  return { mock, agent, client, server, items, url: started.url }
}

/** An openmic client is sent `Interrupt` at each `StartSpeaking`: the flows here are about the rest. */
const withoutInterrupts = (flow: string[]) => flow.filter((entry) => entry !== 'Interrupt')

/** The model's memory, as `role:text` lines. */
const memory = (mock: MockRealtime) => mock.items.map((item) => `${item.role}:${item.text}`)

describe('realtime: a call', () => {
  it('a turn is answered with the model audio; the conversation is the same as with a pipeline', async () => {
    const { mock, client, items } = await realtimeCall({
      transcripts: ['What time is it?'],
      answers: ['It is noon.'],
    })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(withoutInterrupts(client.flow)).toEqual([
      'SkipAnswer',
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(client.audioBytes()).toBe('It is noon.'.length * 10 * 32)
    expect(client.captions).toBe('It is noon.')
    expect(items).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    // One response, asked when the audio was committed
    expect(mock.requests).toHaveLength(1)
    expect(memory(mock)).toEqual(['user:What time is it?', 'assistant:It is noon.'])
  })

  it('a tool call: the same frames and items as an agent, STT and TTS give', async () => {
    const book = {
      name: 'book',
      description: 'Books a table',
      parameters: z.object({ time: z.string() }),
      execute: ({ time }: { time: string }) => ({ booked: time }),
      emitOutput: true,
    }
    const answers = [{ toolCalls: [{ name: 'book', parameters: { time: '8pm' } }] }, 'Booked.']
    const realtime = await realtimeCall({ transcripts: ['A table at 8pm'], answers })
    realtime.agent.addTool(book)
    const pipelineAgent = new MockAgent({ systemPrompt: 'Be brief.', answers })
    pipelineAgent.addTool(book)
    const started = await startMicdrop(
      (socket) =>
        new MicdropServer(socket, {
          agent: pipelineAgent,
          stt: new MockSTT({ utterances: ['A table at 8pm'] }),
          tts: new MockTTS(),
        })
    )
    const stopRealtime = cleanup.stop!
    cleanup.stop = async () => {
      await stopRealtime()
      await started.close()
    }
    const pipeline = await TestClient.connect(started.url, { captions: true })
    await pipeline.waitFor(() => started.servers.length === 1)
    const pipelineItems = finalItems(started.servers[0]!)
    for (const client of [realtime.client, pipeline]) {
      await client.waitFor((c) => c.count('SkipAnswer') === 1)
      client.utterance()
      await client.waitFor((c) => c.count('Message:assistant') === 1)
      await client.settle()
    }
    expect(withoutInterrupts(realtime.client.flow)).toEqual(withoutInterrupts(pipeline.flow))
    expect(realtime.client.texts('ToolCall')).toEqual(pipeline.texts('ToolCall'))
    expect(realtime.client.captions).toBe(pipeline.captions)
    // The same items, but for the call ids, which the model chose
    const withoutIds = (items: MicdropConversationItem[]) =>
      items.map((item) => ({ ...item, toolCallId: undefined }))
    expect(withoutIds(realtime.items)).toEqual(withoutIds(pipelineItems))
    expect(realtime.items.map((item) => item.role)).toEqual([
      'user',
      'tool_call',
      'tool_result',
      'assistant',
    ])
  })

  it('autoEndCall: the goodbye is played, then EndCall', async () => {
    const { client } = await realtimeCall(
      { answers: [{ toolCalls: [{ name: 'end_call' }] }, 'Goodbye!'] },
      { options: { autoEndCall: true } }
    )
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('EndCall') === 1)
    expect(client.flow.slice(-3)).toEqual(['audio', 'Message:assistant', 'EndCall'])
  })

  it('firstMessage: said by the model word for word, in its memory as text', async () => {
    const { mock, client, items } = await realtimeCall(
      { transcripts: ['Hi.'], answers: ['Hello again.'] },
      { server: { firstMessage: 'Welcome!' } }
    )
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(mock.requests[0]).toMatchObject({ kind: 'say', text: 'Welcome!' })
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(items.map((item) => item.content)).toEqual(['Welcome!', 'Hi.', 'Hello again.'])
    expect(memory(mock)).toEqual(['assistant:Welcome!', 'user:Hi.', 'assistant:Hello again.'])
  })

  it('a call given realtime beside agent, stt or tts is refused with a clear error', async () => {
    const agent = new RealtimeAgent({ model: new MockRealtime(), systemPrompt: 'x' })
    const started = await startMicdrop((socket) => {
      try {
        return new MicdropServer(socket, { realtime: agent, agent: new MockAgent() })
      } catch (error) {
        socket.close()
        thrown = error
        return undefined as unknown as MicdropServer
      }
    })
    let thrown: unknown
    cleanup.stop = started.close
    await TestClient.connect(started.url)
    await until(() => thrown !== undefined)
    expect(String(thrown)).toMatch(/`realtime` in place of `agent`, `stt` and `tts`/)
    agent.destroy()
  })
})

describe('realtime: barge-in', () => {
  it('an answer cut while it plays is flagged interrupted and truncated where the user stopped hearing it', async () => {
    const { mock, client, items } = await realtimeCall({ answers: [ANSWER, 'Sure.'] })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.audioBytes() === ANSWER.length * 10 * 32)
    // The openmic client reports where its playback was when the user spoke over it
    client.send(`Played ${JSON.stringify({ ms: 100 })}`)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    const cut = items.find((item) => item.role === 'assistant')!
    expect(cut).toEqual({
      role: 'assistant',
      content: 'One two',
      metadata: { interrupted: true, heardMs: 100, fullContent: ANSWER },
    })
    // The model's memory: the answer cut at the same 100 ms of its audio
    const spoken = mock.items.filter((item) => item.source === 'speech')
    expect(spoken.map((item) => item.truncatedAtMs)).toEqual([100, undefined])
    expect(mock.requests[1]!.conversation[1]).toMatchObject({ role: 'assistant', audioMs: 100 })
    expect(mock.errors).toEqual([])
  })

  it('an answer cut while it is still spoken: what was heard of it, truncated there', async () => {
    // Speech at a natural pace (60 ms a character), one word every 60 ms
    const { mock, client, items } = await realtimeCall({
      answers: [ANSWER, 'Sure.'],
      msPerChar: 60,
      chunkMs: 60,
      chunkDelayMs: 60,
    })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.audioBytes() >= 600 * 32)
    client.send(`Played ${JSON.stringify({ ms: 500 })}`)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    const cut = items.find((item) => item.role === 'assistant') as MicdropConversationMessage
    expect(cut.metadata).toMatchObject({ interrupted: true, heardMs: 500 })
    expect(cut.content.length).toBeGreaterThan(0)
    expect(ANSWER.startsWith(cut.content)).toBe(true)
    expect(mock.items.find((item) => item.source === 'speech')!.truncatedAtMs).toBe(500)
    expect(mock.errors).toEqual([])
  })

  it('a cough while the answer plays: the answer resumes, nothing is truncated, the cough is forgotten', async () => {
    const { mock, client, items } = await realtimeCall({
      transcripts: ['Count for me', '', 'Again'],
      answers: [ANSWER, 'Sure.'],
      chunkMs: 20,
      chunkDelayMs: 20,
    })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('audio') >= 3)
    const from = client.flow.length
    client.send(`Played ${JSON.stringify({ ms: 40, paused: true })}`)
    client.utterance()
    await client.waitFor((c) => c.count('Resume') === 1)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.flow.slice(from)).not.toContain('Interrupt')
    expect(client.audioBytes()).toBe(ANSWER.length * 10 * 32)
    expect(items).toEqual([
      { role: 'user', content: 'Count for me' },
      { role: 'assistant', content: ANSWER },
    ])
    // The next response sees no cough, and the answer whole
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    const seen = mock.requests.at(-1)!.conversation
    expect(seen.map((item) => `${item.role}:${item.text}`)).toEqual([
      'user:Count for me',
      `assistant:${ANSWER}`,
      'user:Again',
    ])
    expect(seen[1]!.truncatedAtMs).toBeUndefined()
  })
})

describe('realtime: the conversation kept', () => {
  it('a resumed call seeds the model session with its stored history', async () => {
    const store = new MemoryConversationStore()
    const history = [
      { role: 'user' as const, content: 'My name is Ada.' },
      { role: 'assistant' as const, content: 'Hello Ada.' },
    ]
    for (const [index, item] of history.entries()) {
      await store.append('c1', index, { type: 'item', item })
    }
    const { mock, client } = await realtimeCall(
      { transcripts: ['What is my name?'], answers: ['Ada.'] },
      { server: { store, conversationId: 'c1' } }
    )
    await client.waitFor((c) => c.count('SkipAnswer') === 1) // resumed silently
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(memory(mock)).toEqual([
      'user:My name is Ada.',
      'assistant:Hello Ada.',
      'user:What is my name?',
      'assistant:Ada.',
    ])
    expect(mock.items.slice(0, 2).map((item) => item.source)).toEqual(['text', 'text'])
  })

  it('a dropped session: the next turn is answered by a new session seeded with the call so far', async () => {
    const { mock, client } = await realtimeCall({
      transcripts: ['One.', 'Two.'],
      answers: ['A.', 'B.'],
    })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    mock.fail()
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(mock.sessions).toBe(2)
    expect(memory(mock)).toEqual(['user:One.', 'assistant:A.', 'user:Two.', 'assistant:B.'])
  })

  it('a response that fails for good: SkipAnswer, and the call goes on', async () => {
    const { client } = await realtimeCall({
      answers: [{ error: Object.assign(new Error('bad request'), { status: 400 }) }, 'Fine now.'],
    })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.flow.at(-1)).toBe('Message:assistant')
  })
})
