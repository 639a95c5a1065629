import { describeAgentConformance, fakeResponsesOf } from '@openmic/testing/conformance'
import { AiSdkAgent } from '../src/index.js'
import { openaiModel, useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

for (const api of ['responses', 'chat'] as const) {
  describeAgentConformance(
    ({ options, answers, serverUrl }) => {
      server.fake.reset()
      server.fake.enqueue(...fakeResponsesOf(answers))
      const baseURL = serverUrl ? `${serverUrl}/v1` : server.fake.baseURL
      return new AiSdkAgent({ ...options, model: openaiModel(baseURL, api) })
    },
    { name: `AiSdkAgent conformance (@ai-sdk/openai ${api})`, network: true }
  )
}
