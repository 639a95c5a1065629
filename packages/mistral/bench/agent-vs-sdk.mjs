// MistralAgent.answer() versus the raw Mistral SDK stream, on one fake server on loopback.
// Each round streams the same 200-delta answer once through each, in an order rotated every
// round; prints medians, p99 and the median of the per-round differences (agent - raw).
// Run after `pnpm build`: `pnpm --filter @openmic/mistral bench` (ROUNDS=... to change).
import { Mistral } from '@mistralai/mistralai'
import { createFakeMistral, formatAgentVsRaw } from '@openmic/testing'
import { performance } from 'node:perf_hooks'
import { MistralAgent } from '../dist/index.js'

const ROUNDS = Number(process.env.ROUNDS ?? 2000)
const WARMUP = Number(process.env.WARMUP ?? 200)
const DELTAS = Array.from({ length: 200 }, (_, i) => `word${i} `)
const SYSTEM = 'You are a benchmark.'
const USER = 'Say 200 words.'

const fake = await createFakeMistral()
const client = new Mistral({ apiKey: 'bench', serverURL: fake.serverURL })
const agent = new MistralAgent({ apiKey: 'bench', serverURL: fake.serverURL, systemPrompt: SYSTEM })
agent.on('Failed', (error) => {
  throw error
})

/** Time to the first text chunk and to the end of the answer, in ms. */
async function viaAgent() {
  agent.conversation = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: USER },
  ]
  fake.replyText(...DELTAS)
  const start = performance.now()
  let first = 0
  let end = 0
  let length = 0
  await new Promise((resolve, reject) => {
    const stream = agent.answer()
    stream.on('data', (chunk) => {
      if (first === 0) first = performance.now() - start
      length += chunk.length
    })
    // Timed in the listener, as the SDK side is timed right after its loop.
    stream.on('end', () => {
      end = performance.now() - start
      resolve()
    })
    stream.on('error', reject)
  })
  check(length)
  return { first, end }
}

async function viaSdk() {
  fake.replyText(...DELTAS)
  const start = performance.now()
  let first = 0
  let length = 0
  const events = await client.chat.stream(
    {
      model: 'mistral-small-latest',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: USER },
      ],
      stream: true,
    },
    { retries: { strategy: 'none' } }
  )
  for await (const event of events) {
    const content = event.data.choices[0]?.delta.content
    if (typeof content === 'string' && content !== '') {
      if (first === 0) first = performance.now() - start
      length += content.length
    }
  }
  check(length)
  return { first, end: performance.now() - start }
}

const expectedLength = DELTAS.join('').length
function check(length) {
  if (length !== expectedLength)
    throw new Error(`Got ${length} characters, expected ${expectedLength}`)
}

// The raw loop stops its clock while the SDK still has clean-up queued: let it run between the
// runs, not inside the next timed run (of either side).
const settle = () => new Promise((resolve) => setImmediate(resolve))

async function round(index) {
  if (index % 2 === 0) {
    const agentTimes = await viaAgent()
    await settle()
    const raw = await viaSdk()
    await settle()
    return { agent: agentTimes, raw, rawFirst: false }
  }
  const raw = await viaSdk()
  await settle()
  const agentTimes = await viaAgent()
  await settle()
  return { agent: agentTimes, raw, rawFirst: true }
}

for (let i = 0; i < WARMUP; i++) await round(i)
fake.reset()
const results = []
for (let i = 0; i < ROUNDS; i++) {
  results.push(await round(i))
  if (i % 100 === 99) fake.reset()
}
await fake.close()

console.log(
  formatAgentVsRaw(
    `MistralAgent vs raw SDK, ${ROUNDS} rounds after ${WARMUP} warm-up, ${DELTAS.length} deltas, Node ${process.version}`,
    results
  )
)
