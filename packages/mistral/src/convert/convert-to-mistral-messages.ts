import type {
  MicdropConversation,
  MicdropConversationItem,
  MicdropConversationToolCall,
  MicdropConversationToolItem,
  MicdropConversationToolResult,
} from '@openmic/core'
import { toMistralToolCallId } from './mistral-tool-call-id.js'
import type { MistralMessage } from './types.js'

/**
 * Said by the assistant, in the request only, between a tool result and the next user message:
 * Mistral rejects a user message right after a tool message, which happens when a turn ended with
 * a tool call and no answer (a tool that skips the answer, or a cancelled answer).
 */
export const BRIDGE_ASSISTANT_CONTENT = '(no spoken answer)'

/**
 * Said by the user, in the request only, after a conversation's last assistant message: Mistral
 * rejects a conversation that ends with one (unless it is a `prefix` the model must continue, which
 * is not what a new answer is). It happens when `answer()` is called again without a user turn in
 * between, e.g. right after the first message, or to follow up on a user who stays silent.
 */
export const SILENT_USER_CONTENT = '(the user says nothing)'

type AssistantMessage = Extract<MistralMessage, { role: 'assistant' }>

/**
 * Turns an openmic conversation into Mistral chat messages, valid for Mistral's stricter rules:
 *
 * - `tool_call` items become `toolCalls` of one assistant message (joined to the assistant text
 *   said just before them), followed by one `role: 'tool'` message per result. Arguments and
 *   outputs are the JSON strings of the conversation, sent as they are (encoded once).
 * - Tool call ids become ids Mistral accepts (see {@link toMistralToolCallId}); a call without its
 *   result, or a result without its call, is left out (Mistral requires pairs).
 * - A user or system message right after a tool message gets an assistant message in between.
 * - A conversation holding only system messages sends them as user messages: Mistral needs one.
 * - A conversation ending with an assistant message gets a user message after it
 *   ({@link SILENT_USER_CONTENT}): Mistral answers only after a user or tool message.
 *
 * The conversation itself is never changed.
 */
export function convertToMistralMessages(conversation: MicdropConversation): MistralMessage[] {
  const messages: MistralMessage[] = []
  let index = 0
  while (index < conversation.length) {
    const item = conversation[index]!
    if (isToolItem(item)) {
      const run: MicdropConversationToolItem[] = []
      while (index < conversation.length && isToolItem(conversation[index]!)) {
        run.push(conversation[index++] as MicdropConversationToolItem)
      }
      appendToolRun(messages, run)
      continue
    }
    index++
    if (item.role !== 'assistant' && messages.at(-1)?.role === 'tool') {
      messages.push({ role: 'assistant', content: BRIDGE_ASSISTANT_CONTENT })
    }
    messages.push({ role: item.role, content: item.content })
  }
  if (messages.every((message) => message.role === 'system')) {
    return messages.map((message) => ({ role: 'user', content: message.content as string }))
  }
  if (messages.at(-1)?.role === 'assistant') {
    messages.push({ role: 'user', content: SILENT_USER_CONTENT })
  }
  return messages
}

function isToolItem(item: MicdropConversationItem): item is MicdropConversationToolItem {
  return item.role === 'tool_call' || item.role === 'tool_result'
}

/** Appends consecutive tool items: one assistant message with the calls, then their results. */
function appendToolRun(messages: MistralMessage[], run: MicdropConversationToolItem[]) {
  const results = new Map<string, MicdropConversationToolResult>()
  for (const item of run) if (item.role === 'tool_result') results.set(item.toolCallId, item)
  const calls = run.filter(
    (item): item is MicdropConversationToolCall =>
      item.role === 'tool_call' && results.has(item.toolCallId)
  )
  if (calls.length === 0) return

  const previous = messages.at(-1)
  const assistant: AssistantMessage =
    previous?.role === 'assistant' && !previous.toolCalls ? previous : { role: 'assistant' }
  if (assistant !== previous) messages.push(assistant)
  assistant.toolCalls = calls.map((call, index) => ({
    id: toMistralToolCallId(call.toolCallId),
    type: 'function',
    index,
    function: { name: call.toolName, arguments: call.parameters },
  }))
  for (const call of calls) {
    const result = results.get(call.toolCallId)!
    messages.push({
      role: 'tool',
      toolCallId: toMistralToolCallId(call.toolCallId),
      name: call.toolName,
      content: result.output,
    })
  }
}
