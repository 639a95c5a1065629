import type { Tool } from '@openmic/core'
import { toolJsonSchema } from '@openmic/core/provider'
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions'
import type { FunctionTool } from 'openai/resources/responses/responses'

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
