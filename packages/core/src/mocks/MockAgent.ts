import type { PassThrough } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent } from '../agent/Agent.js'
import type { AgentOptions } from '../agent/types.js'
import type { MicdropConversation } from '../conversation/types.js'
import type { ModelAnswerLimits, ModelCallRequest, ModelStreamPart } from '../model/types.js'
import type { ModelUsage } from '../telemetry/reports.js'

/** One scripted model response: text (streamed word by word), tool calls, or a failure. */
export type MockAnswer =
  | string
  | {
      text?: string
      toolCalls?: Array<{ name: string; parameters?: Record<string, unknown> | string }>
      /** Fail this model call, after the text (if any) was streamed. */
      error?: unknown
      /** The tokens the call reports it used, after its text and tool calls. */
      usage?: ModelUsage
    }

export interface MockAgentOptions extends Partial<AgentOptions>, ModelAnswerLimits {
  /**
   * The responses, one per model call, in order (the last one repeats), or a function of the
   * conversation. Default: repeats the last user message (`You said: "..."`).
   */
  answers?:
    | MockAnswer[]
    | ((conversation: MicdropConversation, step: number) => MockAnswer | Promise<MockAnswer>)
  /** Delay before each word, in ms (default 0). */
  wordDelayMs?: number
  /** Delay before the first word of each model call, in ms (default 0). */
  firstWordDelayMs?: number
}

/**
 * An agent without a model, for tests and demos. It streams scripted answers word by word through
 * the same machinery as the provider agents (step loop, tools, extraction, cancellation, retries).
 *
 * @example
 * const agent = new MockAgent({ systemPrompt: 'Test', answers: ['Hello there!', 'Goodbye.'] })
 */
export class MockAgent extends Agent<MockAgentOptions & AgentOptions> {
  private calls = 0

  constructor(options: MockAgentOptions = {}) {
    super({ systemPrompt: 'You are a mock agent.', ...options })
  }

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    return this.streamModelAnswer(stream, signal, (request) => this.respond(request), this.options)
  }

  cancel(): void {
    this.abortAnswer()
  }

  private async *respond({ signal, step }: ModelCallRequest): AsyncGenerator<ModelStreamPart> {
    const scripted = await this.nextAnswer(step)
    const answer = typeof scripted === 'string' ? { text: scripted } : scripted
    const words = answer.text?.match(/\s*\S+\s*/g) ?? []
    let first = true
    for (const word of words) {
      const delay = first ? (this.options.firstWordDelayMs ?? 0) : (this.options.wordDelayMs ?? 0)
      first = false
      if (delay > 0) await sleep(delay, undefined, { signal })
      if (signal.aborted) return
      yield { type: 'text', delta: word }
    }
    if (answer.error !== undefined) throw answer.error
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      yield {
        type: 'tool-call',
        toolCall: {
          role: 'tool_call',
          toolCallId: `mock_call_${this.calls}_${index}`,
          toolName: call.name,
          parameters:
            typeof call.parameters === 'string'
              ? call.parameters
              : JSON.stringify(call.parameters ?? {}),
        },
      }
    }
    if (answer.usage) yield { type: 'usage', usage: answer.usage }
  }

  private async nextAnswer(step: number): Promise<MockAnswer> {
    const index = this.calls++
    const { answers } = this.options
    if (typeof answers === 'function') return answers(this.conversation, step)
    if (answers && answers.length > 0) return answers[Math.min(index, answers.length - 1)]!
    const lastUser = this.conversation.findLast((item) => item.role === 'user')
    return lastUser && 'content' in lastUser
      ? `You said: "${lastUser.content}"`
      : 'Hello! How can I help you?'
  }
}
