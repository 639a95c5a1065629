import type { MicdropConversationItem } from '@openmic/core'
import type { ConversationItem } from 'openai/resources/realtime/realtime'

/** An item of openmic's conversation as a Realtime API conversation item, with the id given. */
export function toRealtimeItem(item: MicdropConversationItem, id: string): ConversationItem {
  switch (item.role) {
    case 'tool_call':
      return {
        id,
        type: 'function_call',
        call_id: item.toolCallId,
        name: item.toolName,
        arguments: item.parameters,
      }
    case 'tool_result':
      return { id, type: 'function_call_output', call_id: item.toolCallId, output: item.output }
    case 'assistant':
      return {
        id,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: item.content }],
      }
    default:
      return {
        id,
        type: 'message',
        role: item.role,
        content: [{ type: 'input_text', text: item.content }],
      }
  }
}
