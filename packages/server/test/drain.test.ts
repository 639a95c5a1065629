import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { expect, it } from 'vitest'
import { MemoryConversationStore, MicdropCalls, MicdropServer } from '../src/index.js'
import { closeAfterEach, startServer, TestClient } from './harness.js'

const cleanup = closeAfterEach()

async function drainableServer(store = new MemoryConversationStore(), wordDelayMs = 40) {
  const calls = new MicdropCalls()
  const outcomes: string[] = []
  const server = await startServer((socket) => {
    calls.add(
      new MicdropServer(socket, {
        agent: new MockAgent({ answers: ['one two three four five six'], wordDelayMs }),
        stt: new MockSTT(),
        tts: new MockTTS(),
        store,
        conversationId: 'c1',
      }).on('AnswerEnd', (outcome) => outcomes.push(outcome))
    )
  })
  cleanup.stop = server.close
  return { calls, server, store, outcomes }
}

it('drain lets the answer in progress finish, stores it, then closes with 1012', async () => {
  const { calls, server, store, outcomes } = await drainableServer()
  const client = await TestClient.connect(server.url)
  await client.waitFor((c) => c.count('SkipAnswer') === 1)
  client.utterance()
  await client.waitFor((c) => c.count('audio') > 0)
  const drained = calls.drain({ deadlineMs: 5000 })
  await client.waitForClose()
  await drained
  expect([client.closeCode, client.closeReason]).toEqual([1012, 'Service restart'])
  // The whole answer was spoken before the close, and is stored.
  expect(outcomes).toEqual(['spoken'])
  expect(client.count('Message:assistant')).toBe(1)
  expect(client.texts('Message').at(-1)).toMatchObject({
    item: { role: 'assistant', content: 'one two three four five six' },
  })
  expect(
    (await store.load('c1')).map((record) => record.type === 'item' && record.item.role)
  ).toEqual(['user', 'assistant'])
  expect(calls.size).toBe(0)
})

it('drain closes at the deadline when an answer takes too long', async () => {
  // An answer of more than 2 s: the close at the 50 ms deadline cannot be mistaken for its end
  const { calls, server, outcomes } = await drainableServer(undefined, 400)
  const client = await TestClient.connect(server.url)
  await client.waitFor((c) => c.count('SkipAnswer') === 1)
  client.utterance()
  await client.waitFor((c) => c.count('audio') > 0)
  await calls.drain({ deadlineMs: 50 })
  await client.waitForClose()
  expect(client.closeCode).toBe(1012)
  // Closed before the answer was all spoken: at the deadline, not at the answer's end
  expect(outcomes).not.toContain('spoken')
  expect(client.count('Message:assistant')).toBe(0)
})

it('a call that arrives while draining is closed with 1012 at once', async () => {
  const { calls, server } = await drainableServer()
  await calls.drain()
  const client = await TestClient.connect(server.url)
  await client.waitForClose()
  expect(client.closeCode).toBe(1012)
})
