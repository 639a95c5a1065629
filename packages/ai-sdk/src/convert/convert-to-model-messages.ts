import type { MicdropConversation } from '@openmic/core'
import type { AssistantModelMessage, JSONValue, ModelMessage, ToolModelMessage } from 'ai'

/** The parts of an assistant message: text, then tool calls. */
type AssistantParts = Exclude<AssistantModelMessage['content'], string>

/**
 * The conversation as AI SDK messages. A run of tool items (openmic records call, result, call,
 * result...) becomes one assistant message holding all the calls (after the assistant text said
 * just before them, as the model sent it), followed by one tool message with the results in order.
 * Arguments and outputs are the conversation's JSON strings, parsed (the AI SDK wants values); one
 * that is not JSON is sent as text.
 */
export function convertToModelMessages(conversation: MicdropConversation): ModelMessage[] {
  const messages: ModelMessage[] = []
  let calls: AssistantParts | undefined
  let results: ToolModelMessage | undefined
  for (const item of conversation) {
    if (item.role === 'tool_call') {
      calls ??= toolCallHolder(messages)
      calls.push({
        type: 'tool-call',
        toolCallId: item.toolCallId,
        toolName: item.toolName,
        input: parseJson(item.parameters) ?? item.parameters,
      })
    } else if (item.role === 'tool_result') {
      if (!results) {
        results = { role: 'tool', content: [] }
        messages.push(results)
      }
      const value = parseJson(item.output)
      results.content.push({
        type: 'tool-result',
        toolCallId: item.toolCallId,
        toolName: item.toolName,
        output:
          value === undefined ? { type: 'text', value: item.output } : { type: 'json', value },
      })
    } else {
      calls = undefined
      results = undefined
      messages.push({ role: item.role, content: item.content })
    }
  }
  return messages
}

/** The content the next tool calls go into: that of the last message if it is assistant text. */
function toolCallHolder(messages: ModelMessage[]): AssistantParts {
  const last = messages.at(-1)
  if (last?.role === 'assistant' && typeof last.content === 'string') {
    const parts: AssistantParts = last.content ? [{ type: 'text', text: last.content }] : []
    last.content = parts
    return parts
  }
  const parts: AssistantParts = []
  messages.push({ role: 'assistant', content: parts })
  return parts
}

/** The value of a JSON string, or undefined when it is not JSON. */
function parseJson(text: string): JSONValue | undefined {
  try {
    return JSON.parse(text) as JSONValue
  } catch {
    return undefined
  }
}
