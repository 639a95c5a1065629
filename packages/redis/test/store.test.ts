import { ConversationConflictError, type ConversationRecord } from '@openmic/server'
import { startRedisServer, type TestRedisServer } from '@openmic/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RedisConversationStore } from '../src/index.js'

let redis: TestRedisServer
const stores: RedisConversationStore[] = []

beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  for (const store of stores) await store.close()
  await redis?.stop()
})

function makeStore(options: ConstructorParameters<typeof RedisConversationStore>[0] = {}) {
  const store = new RedisConversationStore({ redis: redis.url, ...options })
  stores.push(store)
  return store
}

const hello: ConversationRecord = { type: 'item', item: { role: 'assistant', content: 'Hello!' } }
const user: ConversationRecord = { type: 'item', item: { role: 'user', content: 'Hi.' } }

describe('RedisConversationStore', () => {
  it('stores records in order and loads them from another client', async () => {
    const store = makeStore()
    expect(await store.load('a')).toEqual([])
    await store.append('a', 0, hello)
    await store.append('a', 1, user)
    await store.append('a', 2, { type: 'cancel-last-user-message' })
    expect(await makeStore().load('a')).toEqual([hello, user, { type: 'cancel-last-user-message' }])
  })

  it('stores a retried record once; another record at a taken or missing place is a conflict', async () => {
    const store = makeStore()
    await store.append('b', 0, hello)
    await store.append('b', 0, hello)
    await expect(store.append('b', 0, user)).rejects.toBeInstanceOf(ConversationConflictError)
    await expect(store.append('b', 5, user)).rejects.toBeInstanceOf(ConversationConflictError)
    expect(await store.load('b')).toEqual([hello])
  })

  it('expires a conversation ttlSeconds after its last change; end() forgets it', async () => {
    const store = makeStore({ ttlSeconds: 120, keyPrefix: 'test:' })
    await store.append('c', 0, hello)
    const ttl = await store.redis.ttl('test:c')
    expect(ttl).toBeGreaterThan(100)
    expect(ttl).toBeLessThanOrEqual(120)
    await store.end('c')
    expect(await store.load('c')).toEqual([])

    const forever = makeStore({ ttlSeconds: 0, keyPrefix: 'test:' })
    await forever.append('d', 0, hello)
    expect(await forever.redis.ttl('test:d')).toBe(-1)
  })

  it('keeps what it acknowledged when redis-server is killed and restarted', async () => {
    const store = makeStore()
    await store.append('e', 0, hello)
    await redis.kill()
    const pending = store.append('e', 1, user)
    await redis.restart()
    await pending
    expect(await store.load('e')).toEqual([hello, user])
  })
})
