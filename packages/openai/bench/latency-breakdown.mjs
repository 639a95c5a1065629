// Where OpenaiAgent's added latency goes, against the raw SDK on the fake server (200 deltas,
// order rotated each round). Both sides use one client whose `responses.create` is wrapped to
// time the call and each stream event, so the SDK's own work is the same on both. Prints medians:
// setup (answer() -> the SDK call; the raw side calls it at once), first hop (the first delta
// event -> the first chunk handed to the reader) and tail (the last event -> the stream's end).
// Run: pnpm --filter @openmic/openai build && node bench/latency-breakdown.mjs [rounds]
import { createFakeOpenAI } from '@openmic/testing'
import OpenAI from 'openai'
import { OpenaiAgent } from '../dist/index.js'

const ROUNDS = Number(process.argv[2] ?? 2000)
const WARMUP = 400
const DELTAS = Array.from({ length: 200 }, (_, i) => `w${i} `)
const INPUT = [
  { role: 'system', content: 'You are a benchmark.' },
  { role: 'user', content: 'Hello' },
]

const fake = await createFakeOpenAI()
const client = new OpenAI({ apiKey: 'sk-bench', baseURL: fake.baseURL })
const at = { create: 0, firstDelta: 0, lastEvent: 0 }
const create = client.responses.create.bind(client.responses)
client.responses.create = (...args) => {
  at.create = performance.now()
  return create(...args).then((stream) => {
    const iterate = stream[Symbol.asyncIterator].bind(stream)
    stream[Symbol.asyncIterator] = () => {
      const events = iterate()
      return {
        async next() {
          const result = await events.next()
          if (!result.done) {
            at.lastEvent = performance.now()
            if (!at.firstDelta && result.value.type === 'response.output_text.delta')
              at.firstDelta = at.lastEvent
          }
          return result
        },
        return: (value) => events.return?.(value) ?? Promise.resolve({ done: true, value }),
      }
    }
    return stream
  })
}

const breakdown = (start, first, end) => ({
  setup: at.create - start,
  firstHop: first - at.firstDelta,
  tail: end - at.lastEvent,
})

async function raw() {
  const start = performance.now()
  let first = 0
  const stream = await client.responses.create({
    model: 'gpt-4.1-mini',
    input: INPUT,
    stream: true,
  })
  for await (const event of stream) {
    if (!first && event.type === 'response.output_text.delta') first = performance.now()
  }
  return breakdown(start, first, performance.now())
}

function agent() {
  const agent = new OpenaiAgent({ openai: client, systemPrompt: INPUT[0].content })
  agent.addUserMessage(INPUT[1].content)
  return new Promise((resolve) => {
    const start = performance.now()
    let first = 0
    const stream = agent.answer()
    stream.on('data', () => {
      if (!first) first = performance.now()
    })
    stream.on('end', () => resolve(breakdown(start, first, performance.now())))
  })
}

const results = { raw: [], agent: [] }
for (let i = 0; i < WARMUP + ROUNDS; i++) {
  for (const [side, run] of i % 2
    ? [
        ['raw', raw],
        ['agent', agent],
      ]
    : [
        ['agent', agent],
        ['raw', raw],
      ]) {
    fake.reset()
    fake.replyText(...DELTAS)
    at.firstDelta = 0
    const result = await run()
    if (i >= WARMUP) results[side].push(result)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
await fake.close()

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]
console.log(`OpenaiAgent latency breakdown (Responses API), ${ROUNDS} rounds, medians in ms`)
for (const key of ['setup', 'firstHop', 'tail']) {
  const raw = median(results.raw.map((r) => r[key]))
  const agent = median(results.agent.map((r) => r[key]))
  console.log(
    `${key.padEnd(9)} raw ${raw.toFixed(3)}  agent ${agent.toFixed(3)}  added ${(agent - raw).toFixed(3)}`
  )
}
