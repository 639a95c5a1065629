import type { PassThrough } from 'node:stream'
import { text } from 'node:stream/consumers'
import {
  Agent,
  END_CALL_TOOL_NAME,
  type AgentOptions,
  type MicdropConversationItem,
} from '@openmic/core'
import { type ModelCallRequest, type ModelStreamPart } from '@openmic/core/provider'
import { detectIntent } from './intents.js'
import { createTimeTool, TIME_TOOL_NAME, type TimeToolOutput } from './time-tool.js'

/** Options of {@link LocalAgent}: every agent option (all optional) and the clock. */
export interface LocalAgentOptions extends Partial<AgentOptions> {
  /** The clock the time tool reads (default: the system clock). */
  now?: () => Date
  /** IANA time zone of the spoken time (default: the system's). */
  timeZone?: string
}

export const LOCAL_AGENT_GREETING =
  "Hello! I am openmic's local assistant. Ask me what time it is, or say goodbye to end the call."

const REPLIES = {
  hello: 'Hello! Ask me what time it is, or say goodbye to end the call.',
  thanks: 'You are welcome!',
  goodbye: 'Goodbye, and have a nice day!',
  other:
    'Sorry, I am a small offline assistant. I can tell you the time, or end the call when you ' +
    'say goodbye.',
}

/**
 * An agent without a model or a key, for the demo and for tests of a whole call: it greets,
 * answers "what time is it" through a real tool (`get_current_time`), ends the call through
 * `end_call` when the user says goodbye, and otherwise answers politely. Its answers go through
 * core's step loop exactly as a language model's would: streamed text, tool calls recorded as
 * `ToolMessage`s, `EndCall`, cancellation.
 *
 * @example
 * const agent = new LocalAgent()
 * agent.addUserMessage('What time is it?')
 * for await (const chunk of agent.answer()) process.stdout.write(chunk) // It is 10:42 PM.
 */
export class LocalAgent extends Agent<LocalAgentOptions & AgentOptions> {
  /** `local`, models run in this process, for tracing. */
  override get providerName(): string {
    return 'local'
  }

  /**
   * Holds one throwaway conversation (the greeting, then "what time is it" through the time tool)
   * so that the first call's answers do not pay for what a process does once: loading the date
   * formatting data of the time zone (about 20 ms) and compiling the answer path. Call it when a
   * server starts.
   *
   * @param options - those the calls will use (the time zone's data is what gets loaded).
   *
   * @example
   * await LocalAgent.warmUp()
   */
  static async warmUp(options: LocalAgentOptions = {}): Promise<void> {
    const agent = new LocalAgent(options)
    try {
      await text(agent.answer())
      agent.addUserMessage('What time is it?')
      await text(agent.answer())
    } finally {
      agent.destroy()
    }
  }

  constructor(options: LocalAgentOptions = {}) {
    super({
      systemPrompt: 'You are a small offline assistant: you tell the time and end calls.',
      autoEndCall: true,
      ...options,
    })
    this.addTool(createTimeTool(options.now ?? (() => new Date()), options.timeZone))
  }

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    return this.streamModelAnswer(stream, signal, (request) => this.respond(request))
  }

  cancel(): void {
    this.abortAnswer()
  }

  /** The "model": one step reads the last conversation item and answers it. */
  private async *respond({ step }: ModelCallRequest): AsyncGenerator<ModelStreamPart> {
    const last = this.conversation.at(-1)
    if (step > 0) {
      yield* words(afterTool(last))
      return
    }
    const user = this.conversation.findLast((item) => item.role === 'user')
    if (user?.role !== 'user') {
      yield* words(LOCAL_AGENT_GREETING)
      return
    }
    const intent = detectIntent(user.content)
    if (intent === 'time') {
      yield toolCall(this.answerCount, TIME_TOOL_NAME)
      return
    }
    yield* words(REPLIES[intent])
    if (intent === 'goodbye' && this.getTool(END_CALL_TOOL_NAME)) {
      yield toolCall(this.answerCount, END_CALL_TOOL_NAME)
    }
  }
}

/** What to say once a tool ran (nothing after `end_call`: the goodbye was said). */
function afterTool(item: MicdropConversationItem | undefined): string {
  if (item?.role !== 'tool_result' || item.toolName !== TIME_TOOL_NAME) return ''
  const output = JSON.parse(item.output) as Partial<TimeToolOutput> & { error?: string }
  return output.time ? `It is ${output.time}.` : 'Sorry, I could not read the clock.'
}

/** Streams text word by word, as a model would. */
function* words(text: string): Generator<ModelStreamPart> {
  for (const delta of text.match(/\S+\s*/g) ?? []) yield { type: 'text', delta }
}

function toolCall(answer: number, toolName: string): ModelStreamPart {
  return {
    type: 'tool-call',
    toolCall: {
      role: 'tool_call',
      toolCallId: `local_${answer}_${toolName}`,
      toolName,
      parameters: '{}',
    },
  }
}
