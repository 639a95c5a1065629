import { OpenaiAgent } from '@openmic/openai'
import { describeSameConversation } from '@openmic/testing/conformance'
import { AiSdkAgent } from '../src/index.js'
import { openaiModel, useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

for (const api of ['responses', 'chat'] as const) {
  describeSameConversation(
    `switching from OpenaiAgent to AiSdkAgent (${api})`,
    (options) => ({
      agent: new OpenaiAgent({ ...options, api, apiKey: 'sk-test', baseURL: server.fake.baseURL }),
      server: server.fake,
    }),
    (options) => ({
      agent: new AiSdkAgent({ ...options, model: openaiModel(server.fake.baseURL, api) }),
      server: server.fake,
    })
  )
}
