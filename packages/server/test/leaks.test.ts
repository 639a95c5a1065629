import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MicdropServer } from '../src/index.js'
import { TestClient, startServer } from './harness.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const servers: WeakRef<MicdropServer>[] = []
const ended: MicdropServer[] = []
let server: Awaited<ReturnType<typeof startServer>>

beforeAll(async () => {
  server = await startServer((socket) => {
    const micdrop = new MicdropServer(socket, {
      agent: new MockAgent({ answers: ['A short answer, streamed word by word.'], wordDelayMs: 1 }),
      stt: new MockSTT(),
      tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 1 }),
      firstMessage: 'Hello',
    })
    servers.push(new WeakRef(micdrop))
    micdrop.on('End', () => ended.push(micdrop))
  })
})
afterAll(() => server.close())

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
const listeners = (e: {
  eventNames(): (string | symbol)[]
  listenerCount(n: string | symbol): number
}) => e.eventNames().reduce((sum, name) => sum + e.listenerCount(name), 0)

/** One call: a turn, then the client leaves — after the answer, or in the middle of it. */
async function oneCall(index: number) {
  const client = await TestClient.connect(server.url)
  client.utterance(2)
  await client.waitFor((c) => c.count('Message:user') === 1)
  if (index % 2 === 0) await client.waitFor((c) => c.answeredLast)
  client.socket.terminate()
}

it('1 000 calls opened and closed leave no timer, listener or server object behind', async () => {
  const baseline = timers()
  for (let batch = 0; batch < 20; batch++) {
    await Promise.all(Array.from({ length: 50 }, (_, i) => oneCall(batch * 50 + i)))
  }
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(servers).toHaveLength(1000)
  expect(ended).toHaveLength(1000)
  for (const micdrop of ended) {
    expect(
      listeners(micdrop) +
        listeners(micdrop.agent) +
        listeners(micdrop.stt) +
        listeners(micdrop.tts)
    ).toBe(0)
    expect(micdrop.socket.listenerCount('message')).toBe(0)
  }
  expect(timers()).toBeLessThanOrEqual(baseline)
  ended.length = 0
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const alive = servers.filter((ref) => ref.deref() !== undefined).length
  expect(alive).toBeLessThan(10)
}, 60_000)

it('a call keeps nothing of an answer once it was heard: its agent and TTS streams are let go', async () => {
  // Each call used to keep its last answer until the next turn, with the streams it read and fed
  const streams: WeakRef<object>[] = []
  class WatchedAgent extends MockAgent {
    override answer() {
      const stream = super.answer()
      streams.push(new WeakRef(stream))
      return stream
    }
  }
  class WatchedTTS extends MockTTS {
    override speak(text: Parameters<MockTTS['speak']>[0]) {
      streams.push(new WeakRef(text))
      super.speak(text)
    }
  }
  const calls = await startServer((socket) => {
    new MicdropServer(socket, {
      agent: new WatchedAgent({ answers: ['Sure.'] }),
      stt: new MockSTT(),
      tts: new WatchedTTS(),
    })
  })
  try {
    const client = await TestClient.connect(calls.url, { captions: true })
    client.utterance()
    await client.waitFor((c) => c.answeredLast)
    expect(streams).toHaveLength(2)
    for (let i = 0; i < 3; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // The call is still open: only what it holds of the finished answer counts
    expect(client.closeCode).toBeUndefined()
    expect(streams.filter((ref) => ref.deref() !== undefined)).toHaveLength(0)
  } finally {
    await calls.close()
  }
})
