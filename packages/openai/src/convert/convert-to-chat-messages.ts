import type { MicdropConversation } from '@openmic/core'
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'

/**
 * The conversation as Chat Completions messages. A run of tool items (openmic records call,
 * result, call, result...) becomes one assistant message holding all the calls (merged into the
 * assistant text said just before them, as the model sent it), followed by the `tool` results in
 * order: the API wants each result after the message holding its call. Arguments and outputs are sent as they are (JSON
 * strings, encoded once).
 */
export function convertToChatMessages(
  conversation: MicdropConversation
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = []
  let calls: ChatCompletionAssistantMessageParam | undefined
  for (const item of conversation) {
    if (item.role === 'tool_call') {
      calls ??= toolCallHolder(messages)
      calls.tool_calls!.push({
        id: item.toolCallId,
        type: 'function',
        function: { name: item.toolName, arguments: item.parameters },
      })
    } else if (item.role === 'tool_result') {
      messages.push({ role: 'tool', tool_call_id: item.toolCallId, content: item.output })
    } else {
      calls = undefined
      messages.push({ role: item.role, content: item.content })
    }
  }
  return messages
}

/** The assistant message the next tool calls go into: the last one if it is assistant text. */
function toolCallHolder(
  messages: ChatCompletionMessageParam[]
): ChatCompletionAssistantMessageParam {
  const last = messages.at(-1)
  if (last?.role === 'assistant' && !last.tool_calls) {
    last.tool_calls = []
    return last
  }
  const holder: ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: null,
    tool_calls: [],
  }
  messages.push(holder)
  return holder
}
