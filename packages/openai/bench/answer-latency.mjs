// Latency OpenaiAgent adds over the raw SDK stream, on loopback against the fake OpenAI server.
// Each round runs both (order rotated), streaming the same 200-delta Responses API answer; prints
// medians and p99 of time to first chunk and to stream end, and the median per-round difference.
// Both sides read every delta's text and check its total length.
// Run: pnpm --filter @openmic/openai build && node bench/answer-latency.mjs [rounds] [api]
import { createFakeOpenAI, formatAgentVsRaw } from '@openmic/testing'
import OpenAI from 'openai'
import { OpenaiAgent } from '../dist/index.js'

const ROUNDS = Number(process.argv[2] ?? 2000)
const API = process.argv[3] ?? 'responses'
const WARMUP = 200
const DELTAS = Array.from({ length: 200 }, (_, i) => `w${i} `)
const SYSTEM = 'You are a benchmark.'
const USER = 'Hello'

const fake = await createFakeOpenAI()
const client = new OpenAI({ apiKey: 'sk-bench', baseURL: fake.baseURL })

async function raw() {
  const start = performance.now()
  let first = 0
  let length = 0
  if (API === 'chat') {
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: USER },
    ]
    const stream = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages,
      stream: true,
    })
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content
      if (content) {
        if (!first) first = performance.now()
        length += content.length
      }
    }
  } else {
    const input = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: USER },
    ]
    const stream = await client.responses.create({ model: 'gpt-4.1-mini', input, stream: true })
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') {
        if (!first) first = performance.now()
        length += event.delta.length
      }
    }
  }
  const end = performance.now()
  check(length)
  return { first: first - start, end: end - start }
}

// Built per round like a new call's agent, outside the timed region: only answer() is timed.
function agent() {
  const agent = new OpenaiAgent({ openai: client, api: API, systemPrompt: SYSTEM })
  agent.addUserMessage(USER)
  return new Promise((resolve, reject) => {
    const start = performance.now()
    let first = 0
    let length = 0
    const stream = agent.answer()
    agent.on('Failed', reject)
    stream.on('data', (chunk) => {
      if (!first) first = performance.now()
      length += chunk.length
    })
    stream.on('end', () => {
      const end = performance.now()
      check(length)
      resolve({ first: first - start, end: end - start })
    })
  })
}

const expectedLength = DELTAS.join('').length
function check(length) {
  if (length !== expectedLength)
    throw new Error(`Got ${length} characters, expected ${expectedLength}`)
}

async function round(index) {
  const rawFirst = index % 2 === 0
  const order = rawFirst ? [raw, agent] : [agent, raw]
  const result = { rawFirst }
  for (const run of order) {
    fake.reset()
    fake.replyText(...DELTAS)
    result[run === raw ? 'raw' : 'agent'] = await run()
    // The raw loop stops its clock while the SDK still has clean-up queued: let it run here, not
    // inside the next timed run (of either side).
    await settle()
  }
  return result
}

const settle = () => new Promise((resolve) => setImmediate(resolve))
for (let i = 0; i < WARMUP; i++) await round(i)
const rounds = []
for (let i = 0; i < ROUNDS; i++) rounds.push(await round(i))
await fake.close()

console.log(
  formatAgentVsRaw(
    `OpenaiAgent vs raw SDK (api: ${API}), ${ROUNDS} rounds after ${WARMUP} warm-up, ${DELTAS.length} deltas, Node ${process.version}`,
    rounds
  )
)
