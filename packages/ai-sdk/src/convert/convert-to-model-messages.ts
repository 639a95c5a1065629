import type { MicdropConversation } from '@openmic/core'
import type {
  AssistantModelMessage,
  JSONValue,
  ModelMessage,
  ProviderMetadata,
  ToolModelMessage,
} from 'ai'

/** The parts of an assistant message: text, then tool calls. */
type AssistantParts = Exclude<AssistantModelMessage['content'], string>

/** What the provider attached to each tool call it made, by call id, to send back with the call. */
export type ToolCallMetadata = ReadonlyMap<string, ProviderMetadata>

/**
 * The conversation as AI SDK messages. A run of tool items (openmic records call, result, call,
 * result...) becomes one assistant message holding all the calls (after the assistant text said
 * just before them, as the model sent it), followed by one tool message with the results in order.
 * Arguments and outputs are the conversation's JSON strings, parsed (the AI SDK wants values): an
 * output that is not JSON is sent as text, arguments that are not a JSON object as `{}` (as the AI
 * SDK sends an invalid call: providers require an object). A call found in `toolCallMetadata` gets
 * back what its provider attached to it (e.g. Gemini's thought signature, which the API requires
 * with the call).
 */
export function convertToModelMessages(
  conversation: MicdropConversation,
  toolCallMetadata: ToolCallMetadata = new Map()
): ModelMessage[] {
  const messages: ModelMessage[] = []
  let calls: AssistantParts | undefined
  let results: ToolModelMessage | undefined
  for (const item of conversation) {
    if (item.role === 'tool_call') {
      calls ??= toolCallHolder(messages)
      const input = parseJson(item.parameters)
      const providerOptions = toolCallMetadata.get(item.toolCallId)
      calls.push({
        type: 'tool-call',
        toolCallId: item.toolCallId,
        toolName: item.toolName,
        input: input && typeof input === 'object' && !Array.isArray(input) ? input : {},
        ...(providerOptions ? { providerOptions } : {}),
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
