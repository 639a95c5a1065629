// Latency AiSdkAgent adds over the raw AI SDK `streamText`, on loopback against the fake OpenAI
// server through the real `@ai-sdk/openai`. Each round runs both (order rotated), streaming the
// same 200-delta answer; prints medians and p99 of time to first chunk and to stream end, and the
// median per-round difference. Both sides share one model and check the answer's total length.
// Run: pnpm --filter @openmic/ai-sdk build && node bench/agent-vs-stream-text.mjs [rounds] [api]
import { createOpenAI } from '@ai-sdk/openai'
import { createFakeOpenAI, formatAgentVsRaw } from '@openmic/testing'
import { streamText } from 'ai'
import { AiSdkAgent } from '../dist/index.js'

const ROUNDS = Number(process.argv[2] ?? 2000)
const API = process.argv[3] ?? 'responses'
const WARMUP = 200
const DELTAS = Array.from({ length: 200 }, (_, i) => `w${i} `)
const SYSTEM = 'You are a benchmark.'
const USER = 'Hello'

const fake = await createFakeOpenAI()
const openai = createOpenAI({ apiKey: 'sk-bench', baseURL: fake.baseURL })
const model = API === 'chat' ? openai.chat('gpt-4.1-mini') : openai.responses('gpt-4.1-mini')

async function raw() {
  const start = performance.now()
  let first = 0
  let length = 0
  const result = streamText({
    model,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: USER },
    ],
    allowSystemInMessages: true,
    maxRetries: 0,
  })
  for await (const text of result.textStream) {
    if (!first) first = performance.now()
    length += text.length
  }
  const end = performance.now()
  check(length)
  return { first: first - start, end: end - start }
}

// Built per round like a new call's agent, outside the timed region: only answer() is timed.
function agent() {
  const agent = new AiSdkAgent({ model, systemPrompt: SYSTEM })
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
    `AiSdkAgent vs raw streamText (@ai-sdk/openai ${API}), ${ROUNDS} rounds after ${WARMUP} warm-up, ${DELTAS.length} deltas, Node ${process.version}`,
    rounds
  )
)
