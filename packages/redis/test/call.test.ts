import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { MockAgent, MockSTT, MockTTS, type MicdropConversation } from '@openmic/core'
import { MicdropServer, type StoreOperation } from '@openmic/server'
import { startRedisServer, type TestRedisServer } from '@openmic/testing'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { RedisConversationStore } from '../src/index.js'

let redis: TestRedisServer
const cleanups: Array<() => Promise<void> | void> = []

beforeAll(async () => {
  redis = await startRedisServer()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  await redis?.stop()
})

/** One server instance: its own Redis client, calls keyed by the `?id=` of their URL. */
async function startInstance(seen: MicdropConversation[] = []) {
  const store = new RedisConversationStore({ redis: redis.url })
  const errors: StoreOperation[] = []
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  wss.on('connection', (socket, request) => {
    const conversationId = new URL(request.url!, 'http://x').searchParams.get('id')!
    new MicdropServer(socket, {
      agent: new MockAgent({
        systemPrompt: 'Be brief.',
        answers: (conversation) => {
          seen.push([...conversation])
          return `Answer ${conversation.length}`
        },
      }),
      stt: new MockSTT({ utterances: (index) => `Question ${index}` }),
      tts: new MockTTS(),
      firstMessage: 'Hello!',
      store,
      conversationId,
      storeTimeoutMs: 200,
    }).on('StoreError', (_, operation) => errors.push(operation))
  })
  await once(wss, 'listening')
  const close = async () => {
    for (const client of wss.clients) client.terminate()
    await new Promise((resolve) => wss.close(resolve))
    await store.close()
  }
  cleanups.push(close)
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, store, errors, close }
}

/**
 * A protocol client as `@openmic/client` (it says `Hello`: each answer's `Message` once heard)
 * that keeps the frames' names (`Message:user`, `audio`...).
 */
async function call(url: string) {
  const socket = new WebSocket(url)
  const log: string[] = []
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) return void log.push('audio')
    const text = data.toString()
    const space = text.indexOf(' ')
    const name = space === -1 ? text : text.slice(0, space)
    log.push(name === 'Message' ? `Message:${JSON.parse(text.slice(space + 1)).role}` : name)
  })
  cleanups.push(() => socket.terminate())
  await once(socket, 'open')
  socket.send('Hello {"captions":true}')
  const count = (entry: string) => log.filter((item) => item === entry).length
  return {
    socket,
    log,
    count,
    async until(predicate: () => boolean, timeoutMs = 8000) {
      const deadline = Date.now() + timeoutMs
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out; received ${log.join(', ')}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    utterance() {
      socket.send('StartSpeaking')
      socket.send(Buffer.alloc(3200, 1), { binary: true })
      socket.send('StopSpeaking')
    },
  }
}

const roles = (records: Awaited<ReturnType<RedisConversationStore['load']>>) =>
  records.map((record) => (record.type === 'item' ? record.item.role : record.type))

it('a call resumes on another instance with its whole history', async () => {
  const first = await startInstance()
  const a = await call(`${first.url}?id=moving`)
  await a.until(() => a.count('Message:assistant') === 1)
  a.utterance()
  await a.until(() => a.count('Message:assistant') === 2)
  await first.close()

  const seen: MicdropConversation[] = []
  const second = await startInstance(seen)
  const b = await call(`${second.url}?id=moving`)
  await b.until(() => b.count('SkipAnswer') === 1)
  b.utterance()
  await b.until(() => b.count('Message:assistant') === 1)
  expect(seen.at(-1)).toEqual([
    { role: 'system', content: 'Be brief.' },
    { role: 'assistant', content: 'Hello!' },
    { role: 'user', content: 'Question 0' },
    { role: 'assistant', content: 'Answer 3' },
    { role: 'user', content: 'Question 0' },
  ])
  expect(roles(await second.store.load('moving'))).toEqual([
    'assistant',
    'user',
    'assistant',
    'user',
    'assistant',
  ])
})

it('redis-server killed mid-call: the call goes on, the failure is reported, the store catches up', async () => {
  const instance = await startInstance()
  const client = await call(`${instance.url}?id=crash`)
  await client.until(() => client.count('Message:assistant') === 1)
  await redis.kill()
  client.utterance()
  await client.until(() => client.count('Message:assistant') === 2)
  expect(instance.errors).toEqual(['append'])
  await redis.restart()
  client.utterance()
  await client.until(() => client.count('Message:assistant') === 3)
  const reader = new RedisConversationStore({ redis: redis.url })
  cleanups.push(() => reader.close())
  const deadline = Date.now() + 5000
  let stored: string[] = []
  while (Date.now() < deadline && stored.length < 5) {
    stored = roles(await reader.load('crash'))
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(stored).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant'])
})
