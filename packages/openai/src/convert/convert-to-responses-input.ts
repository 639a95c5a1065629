import type { MicdropConversation } from '@openmic/core'
import type { ResponseInputItem } from 'openai/resources/responses/responses'

/**
 * The conversation as Responses API input items: messages keep their role and text, `tool_call`
 * items become `function_call` and `tool_result` items `function_call_output`. Arguments and
 * outputs are already JSON strings and are sent as they are (encoded once).
 */
export function convertToResponsesInput(conversation: MicdropConversation): ResponseInputItem[] {
  return conversation.map((item): ResponseInputItem => {
    switch (item.role) {
      case 'tool_call':
        return {
          type: 'function_call',
          call_id: item.toolCallId,
          name: item.toolName,
          arguments: item.parameters,
        }
      case 'tool_result':
        return { type: 'function_call_output', call_id: item.toolCallId, output: item.output }
      default:
        return { role: item.role, content: item.content }
    }
  })
}
