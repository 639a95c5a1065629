import { createOpenAI } from '@ai-sdk/openai'
import type { Agent } from '@openmic/core'
import type { LanguageModel } from 'ai'
import { createFakeOpenAI, type FakeOpenAI } from '@openmic/testing'
import type { Readable } from 'node:stream'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { AiSdkAgent, type AiSdkAgentOptions } from '../src/index.js'

/** The two OpenAI APIs `@ai-sdk/openai` speaks, both served by the fake OpenAI server. */
export type OpenaiApi = 'responses' | 'chat'

/** A real `@ai-sdk/openai` model talking to `baseURL` (the fake server) through `api`. */
export function openaiModel(
  baseURL: string,
  api: OpenaiApi,
  modelId = 'gpt-4.1-mini'
): LanguageModel {
  const openai = createOpenAI({ apiKey: 'sk-test', baseURL })
  return api === 'chat' ? openai.chat(modelId) : openai.responses(modelId)
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

/** An AiSdkAgent whose model is `@ai-sdk/openai` against the fake server. */
export function fakeOpenaiAgent(
  fake: FakeOpenAI,
  api: OpenaiApi,
  options: Partial<AiSdkAgentOptions> = {}
): AiSdkAgent {
  return new AiSdkAgent({
    model: openaiModel(fake.baseURL, api),
    systemPrompt: 'You are a test.',
    ...options,
  })
}

/** Reads a whole answer stream as text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

/** Answers once and returns the streamed text and the `Failed` error, if any. */
export async function answerOnce(agent: Agent): Promise<{ text: string; failed?: any }> {
  let failed: unknown
  agent.on('Failed', (error) => (failed = error))
  const text = await readAll(agent.answer())
  await new Promise((resolve) => setImmediate(resolve))
  return { text, failed }
}
