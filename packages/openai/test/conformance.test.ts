import { describeAgentConformance, fakeResponsesOf } from '@openmic/testing/conformance'
import { OpenaiAgent } from '../src/index.js'
import { useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

for (const api of ['responses', 'chat'] as const) {
  describeAgentConformance(
    ({ options, answers, serverUrl }) => {
      server.fake.reset()
      server.fake.enqueue(...fakeResponsesOf(answers))
      const baseURL = serverUrl ? `${serverUrl}/v1` : server.fake.baseURL
      return new OpenaiAgent({ ...options, api, apiKey: 'sk-test', baseURL })
    },
    { name: `OpenaiAgent conformance (api: ${api})`, network: true }
  )
}
