import { type Tool } from '@openmic/core'
import { toolJsonSchema } from '@openmic/core/provider'
import type { MistralTool } from './types.js'

/**
 * The agent's tools as Mistral function tools, their JSON Schema made by core's `toolJsonSchema`
 * (zod's own `z.toJSONSchema`). `strict` is set when the schema allows it.
 */
export function prepareMistralTools(tools: readonly Tool[]): MistralTool[] {
  return tools.map((tool) => {
    const { schema, strict } = toolJsonSchema(tool)
    return {
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: schema, strict },
    }
  })
}
