import type { FakePart, FakeResponse } from '../sse-server/types.js'
import type { ConformanceAnswer } from './types.js'

/**
 * The fake-server responses that play conformance answers, in any dialect: enqueue them on a
 * {@link FakeSseServer} (e.g. `fake.enqueue(...fakeResponsesOf(setup.answers))`).
 */
export function fakeResponsesOf(answers: ConformanceAnswer[]): FakeResponse[] {
  return answers.map((answer): FakeResponse => {
    if (answer.errorStatus !== undefined) {
      const message = `Fake error ${answer.errorStatus}`
      const { retryAfter } = answer
      return { type: 'error', status: answer.errorStatus, body: { error: { message } }, retryAfter }
    }
    if (answer.stall) return { type: 'stall' }
    const parts: FakePart[] = []
    for (const delta of answer.deltas ?? []) {
      if (answer.delayMs) parts.push({ type: 'delay', ms: answer.delayMs })
      parts.push({ type: 'text', delta })
    }
    for (const call of answer.toolCalls ?? []) {
      parts.push({ type: 'tool-call', name: call.name, arguments: call.arguments })
    }
    if (answer.breakAfterDeltas) parts.push({ type: 'reset' })
    return { type: 'stream', parts }
  })
}
