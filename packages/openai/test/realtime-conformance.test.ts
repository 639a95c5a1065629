import { createFakeOpenaiRealtime } from '@openmic/testing'
import { describeRealtimeConformance } from '@openmic/testing/conformance'
import { afterAll } from 'vitest'
import { OpenaiRealtime } from '../src/index.js'

// One fake server for the file, created before the suite watches what the model opens.
const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
afterAll(() => fake.close())

describeRealtimeConformance('OpenaiRealtime', {
  make: () => {
    fake.reset()
    return {
      model: new OpenaiRealtime({ apiKey: 'sk-test', baseURL: fake.baseURL }),
      next: (step) => {
        switch (step.kind) {
          case 'transcript':
            return void fake.replyTranscript(step.text)
          case 'response':
            return void fake.replyResponse(step.text, { msPerChar: 20 })
          case 'slow-response':
            return void fake.replyResponse(step.text, { wordDelayMs: 150 })
          case 'function-call':
            return void fake.replyResponseSteps({
              type: 'function_call',
              name: step.name,
              arguments: step.arguments,
            })
          case 'failed-response':
            return void fake.replyResponseSteps({
              type: 'fail',
              message: 'The server had an error.',
            })
          case 'drop':
            return fake.resetConnections()
          case 'refuse':
            return void fake.rejectConnection(step.status)
        }
      },
    }
  },
})
