import { type MicdropConversation, type Tool } from '@openmic/core'
import { toolJsonSchema } from '@openmic/core/provider'
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions'
import type { FunctionTool } from 'openai/resources/responses/responses'

/**
 * Whether tools are offered for this call: never for the very first answer (the conversation holds
 * only the system prompt), as Micdrop users expect, and not when there are none.
 */
export function shouldSendTools(conversation: MicdropConversation, tools: Tool[]): boolean {
  return tools.length > 0 && conversation.some((item) => item.role !== 'system')
}

/** Tools in the Responses API shape. `strict` is explicit: the Responses API defaults it to true. */
export function prepareResponsesTools(tools: Tool[]): FunctionTool[] {
  return tools.map((tool) => {
    const { schema, strict } = toolJsonSchema(tool)
    return {
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: schema,
      strict,
    }
  })
}

/**
 * Tools in the Chat Completions shape. `strict` is only sent when the schema allows it, so that
 * compatible servers that do not know the field never see it.
 */
export function prepareChatTools(tools: Tool[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const { schema, strict } = toolJsonSchema(tool)
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: schema,
        ...(strict ? { strict: true } : {}),
      },
    }
  })
}
