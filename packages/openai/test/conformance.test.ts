import { describeAgentConformance, fakeResponsesOf } from '@openmic/testing/conformance'
import { OpenaiAgent } from '../src/index.js'
import { useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

for (const api of ['responses', 'chat'] as const) {
  describeAgentConformance(
    ({ options, answers }) => {
      server.fake.reset()
      server.fake.enqueue(...fakeResponsesOf(answers))
      return new OpenaiAgent({ ...options, api, apiKey: 'sk-test', baseURL: server.fake.baseURL })
    },
    { name: `OpenaiAgent conformance (api: ${api})` }
  )
}
