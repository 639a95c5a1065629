// The conversation store's cost per turn: N calls (default 200) in one process, on in-memory
// sockets with the zero-latency doubles, each taking a turn about once a second, against a local
// redis-server started here. Prints, without a store and with RedisConversationStore, the turn
// latency as the client would see it (StopSpeaking received -> first audio frame handed to the
// socket, which includes waiting for the user message to be stored) and the store's append time.
// Run: pnpm build (core, server, testing, redis) && node bench/store-cost.mjs [calls] [seconds]
import { EventEmitter } from 'node:events'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { startRedisServer } from '@openmic/testing'
import { RedisConversationStore } from '../dist/index.js'

const CALLS = Number(process.argv[2] ?? 200)
const SECONDS = Number(process.argv[3] ?? 10)
const CHUNK = Buffer.alloc(3200, 3)

/** What MicdropServer needs of a `ws` socket; times the first audio frame after StopSpeaking. */
class MemorySocket extends EventEmitter {
  readyState = 1
  stopAt = 0
  constructor(latencies) {
    super()
    this.latencies = latencies
  }
  send(data, options) {
    if (options?.binary && this.stopAt) {
      this.latencies.push(performance.now() - this.stopAt)
      this.stopAt = 0
    }
  }
  turn() {
    this.emit('message', Buffer.from('StartSpeaking'), false)
    for (let i = 0; i < 10; i++) this.emit('message', CHUNK, true)
    this.stopAt = performance.now()
    this.emit('message', Buffer.from('StopSpeaking'), false)
  }
}

/** Times every append of `store`. */
function timed(store, appends) {
  const append = store.append.bind(store)
  store.append = async (...args) => {
    const startedAt = performance.now()
    await append(...args)
    appends.push(performance.now() - startedAt)
  }
  return store
}

async function run(label, store, agentDelayMs = 0) {
  const latencies = []
  const sockets = Array.from({ length: CALLS }, (_, index) => {
    const socket = new MemorySocket(latencies)
    new MicdropServer(socket, {
      agent: new MockAgent({ answers: ['Sure, here you go.'], firstWordDelayMs: agentDelayMs }),
      stt: new MockSTT({ utterances: ['Hello'] }),
      tts: new MockTTS(),
      ...(store ? { store, conversationId: `${label}-${index}-${Date.now()}` } : {}),
    })
    return socket
  })
  await new Promise((resolve) => setTimeout(resolve, 200)) // histories loaded
  const warmup = 2
  const end = Date.now() + (SECONDS + warmup) * 1000
  const timers = sockets.map((socket, index) =>
    setTimeout(function tick() {
      if (Date.now() > end) return
      socket.turn()
      timers[index] = setTimeout(tick, 900 + Math.random() * 200)
    }, Math.random() * 1000)
  )
  await new Promise((resolve) => setTimeout(resolve, warmup * 1000))
  latencies.length = 0
  const counted = []
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000 + 300))
  counted.push(...latencies)
  for (const timer of timers) clearTimeout(timer)
  for (const socket of sockets) socket.emit('close')
  return counted
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}
const fmt = (values) =>
  `p50 ${percentile(values, 50).toFixed(2)} ms  p99 ${percentile(values, 99).toFixed(2)} ms  (${values.length})`

const redis = await startRedisServer({ appendfsync: 'everysec' })
try {
  const appends = []
  const store = timed(new RedisConversationStore({ redis: redis.url }), appends)
  await store.load('warmup')
  console.log(`${CALLS} calls, a turn per call about every second, ${SECONDS} s measured per row`)
  // 0 ms: the append is the whole critical path. 100 ms: an agent's first text comes later than
  // the user message's append, as with any real model.
  for (const agentDelayMs of [0, 100]) {
    const without = await run('none', undefined, agentDelayMs)
    appends.length = 0
    const withStore = await run('redis', store, agentDelayMs)
    const warm = appends.slice(Math.floor(appends.length / 6))
    console.log(`agent's first text after ${agentDelayMs} ms:`)
    console.log(`  turn latency, no store:     ${fmt(without)}`)
    console.log(`  turn latency, Redis store:  ${fmt(withStore)}`)
    console.log(`  Redis append (2 per turn):  ${fmt(warm)}`)
    console.log(
      `  added: p50 ${(percentile(withStore, 50) - percentile(without, 50)).toFixed(2)} ms, ` +
        `p99 ${(percentile(withStore, 99) - percentile(without, 99)).toFixed(2)} ms`
    )
  }
  await store.close()
} finally {
  await redis.stop()
}
