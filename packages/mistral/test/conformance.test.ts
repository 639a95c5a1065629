import { describeAgentConformance, fakeResponsesOf } from '@openmic/testing/conformance'
import { mistralAgent, useFakeMistral } from './helpers.js'

const fake = useFakeMistral()

describeAgentConformance(
  ({ options, answers, serverUrl }) => {
    fake.server.reset()
    fake.server.enqueue(...fakeResponsesOf(answers))
    return mistralAgent(fake.server, { ...options, ...(serverUrl ? { serverURL: serverUrl } : {}) })
  },
  { name: 'MistralAgent conformance', network: true }
)
