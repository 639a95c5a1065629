import { MockAgent, type MockAnswer } from '@openmic/core'
import type { FullScript, ScriptedAnswer } from './script.js'

/**
 * The default server's agent: core's MockAgent (its step loop, tools and cancellation) with the
 * script's answers, one per `answer()` (a tool call's follow-up model call says the answer's
 * `then`), and the three default tools on.
 */
export function createScriptedAgent(script: FullScript['agent']): MockAgent {
  const { answers, firstWordDelayMs, wordDelayMs } = script
  let answer: ScriptedAnswer = ''
  let calls = 0
  return new MockAgent({
    systemPrompt: 'You are the simulated agent.',
    autoEndCall: true,
    autoIgnoreUserNoise: true,
    autoSemanticTurn: true,
    // A failure is scripted as one: no retry turns it into a success.
    maxRetry: 0,
    firstWordDelayMs,
    wordDelayMs,
    answers:
      answers && answers.length > 0
        ? async (_conversation, step): Promise<MockAnswer> => {
            if (step > 0) return typeof answer === 'string' ? '' : (answer.then ?? '')
            const next = answers[Math.min(calls++, answers.length - 1)]!
            answer = next
            if (typeof next === 'string') return next
            if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs))
            return toMockAnswer(next)
          }
        : undefined,
  })
}

function toMockAnswer(answer: Exclude<ScriptedAnswer, string>): MockAnswer {
  return {
    text: answer.text,
    toolCalls: answer.tools?.map((name) => ({ name })),
    error: answer.error === undefined ? undefined : new Error(answer.error),
  }
}
