import { OpenaiAgent } from '@openmic/openai'
import { createFakeOpenAI, type FakeOpenAI } from '@openmic/testing'
import { describeSameConversation } from '@openmic/testing/conformance'
import { afterAll, beforeAll } from 'vitest'
import { mistralAgent, useFakeMistral } from './helpers.js'

const mistral = useFakeMistral()
let openai: FakeOpenAI
beforeAll(async () => {
  openai = await createFakeOpenAI()
})
afterAll(() => openai.close())

describeSameConversation(
  'switching from OpenaiAgent to MistralAgent',
  (options) => ({
    agent: new OpenaiAgent({ ...options, apiKey: 'sk-test', baseURL: openai.baseURL }),
    server: openai,
  }),
  (options) => ({ agent: mistralAgent(mistral.server, options), server: mistral.server })
)
