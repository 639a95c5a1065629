import {
  FallbackRealtime,
  MockRealtime,
  ProviderError,
  type MockRealtimeAnswer,
  type MockRealtimeOptions,
} from '@openmic/core'
import { describeRealtimeConformance } from '../src/conformance/index.js'
import type { RealtimeConformanceStep } from '../src/conformance/index.js'

/** A MockRealtime scripted step by step, as the suite asks (it cannot refuse a session). */
function scriptedMock() {
  const answers: MockRealtimeAnswer[] = []
  const transcripts: string[] = []
  // Read at each response: a slow one is paced by `chunkDelayMs`
  const options: MockRealtimeOptions = {
    answers: () => answers.shift() ?? 'Fine.',
    transcripts: () => transcripts.shift() ?? '',
    chunkMs: 40,
  }
  const model = new MockRealtime(options)
  const next = (step: RealtimeConformanceStep) => {
    options.chunkDelayMs = step.kind === 'slow-response' ? 100 : 0
    switch (step.kind) {
      case 'transcript':
        return void transcripts.push(step.text)
      case 'response':
      case 'slow-response':
        return void answers.push(step.text)
      case 'function-call':
        return void answers.push({
          toolCalls: [{ name: step.name, parameters: step.arguments }],
        })
      case 'failed-response':
        return void answers.push({ error: new ProviderError('MockRealtime', 'it failed') })
      case 'drop':
        return model.fail()
      case 'refuse':
        throw new Error('MockRealtime cannot refuse a session')
    }
  }
  return { model, next }
}

describeRealtimeConformance('MockRealtime', { sessionFailures: false, make: scriptedMock })

describeRealtimeConformance('FallbackRealtime', {
  sessionFailures: false,
  make: () => {
    const { model, next } = scriptedMock()
    return { model: new FallbackRealtime({ factories: [() => model] }), next }
  },
})
