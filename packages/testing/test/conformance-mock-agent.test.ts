import { MockAgent, type MockAnswer } from '@openmic/core'
import { describeAgentConformance, type ConformanceAnswer } from '../src/conformance/index.js'

function toMockAnswer(answer: ConformanceAnswer): MockAnswer {
  if (answer.errorStatus !== undefined) {
    return {
      error: Object.assign(new Error(`HTTP ${answer.errorStatus}`), { status: answer.errorStatus }),
    }
  }
  return {
    text: (answer.deltas ?? []).join(''),
    toolCalls: answer.toolCalls?.map((call) => ({ name: call.name, parameters: call.arguments })),
  }
}

describeAgentConformance(
  ({ options, answers }) =>
    new MockAgent({
      ...options,
      answers: answers.map(toMockAnswer),
      wordDelayMs: Math.max(0, ...answers.map((answer) => answer.delayMs ?? 0)),
    }),
  { name: 'MockAgent conformance' }
)
