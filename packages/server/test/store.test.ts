import { MockAgent, MockSTT, MockTTS, type MicdropConversationItem } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import {
  MemoryConversationStore,
  MicdropServer,
  type ConversationRecord,
  type MicdropServerOptions,
  type StoreOperation,
} from '../src/index.js'
import { closeAfterEach, finalItems, startMicdrop, TestClient, until } from './harness.js'

const SYSTEM_PROMPT = 'You are a patient assistant.'

/** The memory store behind a switch (failing, slow), with what it holds readable at once. */
class TestStore extends MemoryConversationStore {
  failing = false
  delayMs = 0
  readonly held = new Map<string, ConversationRecord[]>()

  override async load(id: string) {
    await this.wait()
    return super.load(id)
  }

  override async append(id: string, index: number, record: ConversationRecord) {
    await this.wait()
    await super.append(id, index, record)
    this.held.set(id, await super.load(id))
  }

  roles(id: string): string[] {
    return (this.held.get(id) ?? []).map((record) =>
      record.type === 'item' ? record.item.role : 'cancel'
    )
  }

  private async wait() {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    if (this.failing) throw new Error('store down')
  }
}

const cleanup = closeAfterEach()

async function storedCall(
  store: TestStore,
  options: Partial<MicdropServerOptions> & { agent?: MockAgent } = {}
) {
  const errors: Array<[unknown, StoreOperation]> = []
  const server = await startMicdrop((socket) => {
    const call = new MicdropServer(socket, {
      agent: new MockAgent({ systemPrompt: SYSTEM_PROMPT }),
      stt: new MockSTT({ utterances: (index) => `Utterance ${index}` }),
      tts: new MockTTS(),
      store,
      conversationId: 'c1',
      ...options,
    })
    call.on('StoreError', (error, operation) => errors.push([error, operation]))
    return call
  })
  cleanup.stop = server.close
  // openmic's client: each assistant Message it is sent is the final one, the one stored
  const client = await TestClient.connect(server.url, { captions: true })
  return { client, server, errors }
}

describe('MicdropServer with a store', () => {
  it('stores every item before its Message frame reaches the client', async () => {
    const store = new TestStore()
    store.delayMs = 30
    const { client } = await storedCall(store, { firstMessage: 'Hello!' })
    // For each Message frame, in order: how many records the store held when it arrived.
    const storedWhenSeen: number[] = []
    client.socket.on('message', (data, isBinary) => {
      if (!isBinary && data.toString().startsWith('Message')) {
        storedWhenSeen.push(store.roles('c1').length)
      }
    })
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(storedWhenSeen).toHaveLength(3)
    storedWhenSeen.forEach((stored, index) => expect(stored).toBeGreaterThan(index))
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant'])
  })

  it('resumes: an unanswered last user message is answered, with the whole history', async () => {
    const store = new TestStore()
    const slow = await storedCall(store, {
      firstMessage: 'Hello!',
      agent: new MockAgent({ systemPrompt: SYSTEM_PROMPT, firstWordDelayMs: 300 }),
    })
    await slow.client.waitFor((c) => c.count('Message:assistant') === 1)
    slow.client.utterance()
    await slow.client.waitFor((c) => c.count('Message:user') === 1)
    slow.client.socket.terminate() // gone before the answer
    await cleanup.stop!()

    let seen: MicdropConversationItem[] = []
    const agent = new MockAgent({
      systemPrompt: SYSTEM_PROMPT,
      answers: (conversation) => {
        seen = [...conversation]
        return 'Sorry, you were saying?'
      },
    })
    const { client } = await storedCall(store, { firstMessage: 'Hello!', agent })
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.flow).toEqual(['audio', 'Message:assistant'])
    expect(seen).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Utterance 0' },
    ])
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant'])
  })

  it('resumes silently when the last answer was given; the next turn sees everything', async () => {
    const store = new TestStore()
    const first = await storedCall(store, { firstMessage: 'Hello!' })
    await first.client.waitFor((c) => c.count('Message:assistant') === 1)
    first.client.utterance()
    await first.client.waitFor((c) => c.count('Message:assistant') === 2)
    first.client.socket.terminate()
    await cleanup.stop!()

    const agent = new MockAgent({
      systemPrompt: SYSTEM_PROMPT,
      answers: (conversation) => `History of ${conversation.length}`,
    })
    const { client } = await storedCall(store, { firstMessage: 'Hello!', agent })
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.count('audio')).toBeGreaterThan(0)
    expect(client.log.filter((entry) => entry !== 'audio').slice(0, 3)).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
    ])
    // system, Hello!, user, answer, new user: nothing lost, nothing twice.
    expect(store.held.get('c1')!.at(-1)).toEqual({
      type: 'item',
      item: { role: 'assistant', content: 'History of 5' },
    })
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant'])
  })

  it('handles the frames sent while the history loads, after it', async () => {
    const store = new TestStore()
    await store.append('c1', 0, { type: 'item', item: { role: 'assistant', content: 'Hi.' } })
    store.delayMs = 100
    const { client } = await storedCall(store)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // The audio never waits for the store: it may come before the user message it answers
    expect(client.log.filter((entry) => entry !== 'audio')).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'Message:assistant',
    ])
    expect(client.count('audio')).toBeGreaterThan(0)
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant'])
  })

  it('reports a failing store once; the call goes on and the store catches up in order', async () => {
    const store = new TestStore()
    const { client, errors } = await storedCall(store, { firstMessage: 'Hello!' })
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    store.failing = true
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 3)
    expect(errors.map(([error, operation]) => [(error as Error).message, operation])).toEqual([
      ['store down', 'append'],
    ])
    expect(store.roles('c1')).toEqual(['assistant'])
    store.failing = false
    await until(() => store.roles('c1').length === 5)
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant'])
  })

  it('a store slower than storeTimeoutMs is reported once; frames stop waiting for it', async () => {
    const store = new TestStore()
    const { client, errors, server } = await storedCall(store, {
      firstMessage: 'Hello!',
      storeTimeoutMs: 50,
    })
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // Slow enough that the answer's write (once it was heard) queues behind the user message's:
    // one outage
    store.delayMs = 800
    const kept = finalItems(server.servers[0]!)
    client.utterance()
    await until(() => kept.some((item) => item.role === 'assistant'))
    // What the store held when the answer's frame came, read as it came
    let storedAtFrame: string[] = []
    await client.waitFor((c) => {
      storedAtFrame = store.roles('c1')
      return c.count('Message:assistant') === 2
    })
    // The answer's frame went once it was final, not behind the store's writes (2 x 800 ms):
    // neither the user's message nor the answer was written yet
    expect(storedAtFrame).toEqual(['assistant'])
    expect(errors.map(([, operation]) => operation)).toEqual(['append'])
    expect(store.roles('c1')).toEqual(['assistant'])
    await until(() => store.roles('c1').length === 3)
    expect(store.roles('c1')).toEqual(['assistant', 'user', 'assistant'])
  })

  it('goes on without history when the load fails, and does not overwrite the stored one', async () => {
    const store = new TestStore()
    await store.append('c1', 0, { type: 'item', item: { role: 'assistant', content: 'Hi.' } })
    store.failing = true
    const { client, errors } = await storedCall(store, { firstMessage: 'Hello!' })
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(errors.map(([, operation]) => operation)).toEqual(['load'])
    store.failing = false
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect((await store.load('c1')).length).toBe(1)
  })

  it('forgets the conversation after a normal close, keeps it after a drop', async () => {
    const store = new TestStore()
    const dropped = await storedCall(store, { firstMessage: 'Hello!' })
    await dropped.client.waitFor((c) => c.count('Message:assistant') === 1)
    dropped.client.socket.terminate()
    await cleanup.stop!()
    expect(await store.load('c1')).toHaveLength(1)

    const { client } = await storedCall(store)
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.socket.close(1000) // what @openmic/client sends when the user hangs up
    await client.waitForClose()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await store.load('c1')).toEqual([])
  })
})

describe('MemoryConversationStore', () => {
  it('forgets a conversation ttlSeconds after its last change', async () => {
    const store = new MemoryConversationStore({ ttlSeconds: 0.05 })
    const hello: ConversationRecord = { type: 'item', item: { role: 'assistant', content: 'Hi' } }
    await store.append('a', 0, hello)
    expect(await store.load('a')).toEqual([hello])
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(await store.load('a')).toEqual([])
    await store.append('a', 0, hello) // starts over
  })

  it('is the store of a call given a conversationId and no store', async () => {
    const first = await startMicdrop(
      (socket) =>
        new MicdropServer(socket, {
          agent: new MockAgent({ systemPrompt: SYSTEM_PROMPT }),
          stt: new MockSTT(),
          tts: new MockTTS(),
          firstMessage: 'Hello!',
          conversationId: 'default-store',
        })
    )
    cleanup.stop = first.close
    const a = await TestClient.connect(first.url, { captions: true })
    await a.waitFor((c) => c.count('Message:assistant') === 1)
    a.socket.terminate()
    const b = await TestClient.connect(first.url)
    await b.waitFor((c) => c.count('SkipAnswer') === 1)
    expect(b.count('Message:assistant')).toBe(0)
  })
})
