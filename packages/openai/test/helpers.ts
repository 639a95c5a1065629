import type { Readable } from 'node:stream'
import type { Agent } from '@openmic/core'
import { createFakeOpenAI, type FakeOpenAI } from '@openmic/testing'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { OpenaiAgent } from '../src/index.js'
import type { OpenaiAgentOptions } from '../src/index.js'

/** Reads a whole answer stream as text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += chunk.toString()
  return text
}

/** Answers once and returns the streamed text and the `Failed` error, if any. */
export async function answerOnce(agent: Agent): Promise<{ text: string; failed?: any }> {
  let failed: unknown
  agent.on('Failed', (error) => (failed = error))
  const text = await readAll(agent.answer())
  // `Failed` is emitted before the stream ends; give listeners a tick anyway.
  await new Promise((resolve) => setImmediate(resolve))
  return { text, failed }
}

/** A fake OpenAI server shared by a test file, reset before each test. */
export function useFakeOpenAI(): { readonly fake: FakeOpenAI } {
  const holder = {} as { fake: FakeOpenAI }
  beforeAll(async () => {
    holder.fake = await createFakeOpenAI()
  })
  beforeEach(() => holder.fake.reset())
  afterAll(() => holder.fake.close())
  return holder
}

type TestAgentOptions = Partial<OpenaiAgentOptions> & { api?: 'responses' | 'chat' }

/** An OpenaiAgent talking to the fake server, with a user message already in the conversation. */
export function makeAgent(fake: FakeOpenAI, options: TestAgentOptions = {}): OpenaiAgent {
  const agent = new OpenaiAgent({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    systemPrompt: 'You are a test.',
    ...options,
  } as OpenaiAgentOptions)
  agent.addUserMessage('Hello')
  return agent
}
