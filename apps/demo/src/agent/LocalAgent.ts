import type { PassThrough } from 'node:stream'
import {
  Agent,
  type AgentOptions,
  type MicdropConversationItem,
  type ModelCallRequest,
  type ModelStreamPart,
  type Tool,
} from '@openmic/core'
import { createTimeTool, TIME_TOOL_NAME } from './time-tool.js'
import { decideReply, type Reply } from './replies.js'

export interface LocalAgentOptions extends Partial<AgentOptions> {
  /** Clock of the `get_time` tool (tests pass a fixed one). */
  now?: () => Date
  /** IANA time zone the time is told in (default: the server's). */
  timeZone?: string
}

/**
 * A small offline agent for the demo when no API key is set. It behaves like an LLM through core's
 * shared machinery: it greets, answers "what time is it" by calling a real `get_time` tool, ends the
 * call on "goodbye" through `end_call`, and otherwise answers politely. Tools, events and end of call
 * flow exactly as they do with OpenAI or Mistral.
 */
export class LocalAgent extends Agent<LocalAgentOptions & AgentOptions> {
  constructor(options: LocalAgentOptions = {}) {
    super({
      systemPrompt: 'You are the openmic demo assistant. Be brief and friendly.',
      autoEndCall: true,
      ...options,
    })
    this.addTool(createTimeTool(options.now ?? (() => new Date()), options.timeZone) as Tool)
  }

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    return this.streamModelAnswer(stream, signal, (request) => this.respond(request))
  }

  cancel(): void {
    this.log('Cancel')
  }

  private async *respond({ signal }: ModelCallRequest): AsyncGenerator<ModelStreamPart> {
    const reply: Reply = decideReply(this.conversation as MicdropConversationItem[])
    if (reply.type === 'tool') {
      yield {
        type: 'tool-call',
        toolCall: {
          role: 'tool_call',
          toolCallId: `local_${Date.now().toString(36)}_${this.conversation.length}`,
          toolName: reply.toolName,
          parameters: '{}',
        },
      }
      return
    }
    for (const word of reply.text.match(/\S+\s*/g) ?? []) {
      if (signal.aborted) return
      yield { type: 'text', delta: word }
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

export { TIME_TOOL_NAME }
