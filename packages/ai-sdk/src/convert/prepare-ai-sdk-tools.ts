import type { Tool } from '@openmic/core'
import { toolJsonSchema } from '@openmic/core/provider'
import { jsonSchema, tool, type ToolSet } from 'ai'

/**
 * The agent's tools as an AI SDK tool set for the model to call: each tool's JSON Schema made by
 * core's `toolJsonSchema`, with `strict` set when the schema allows it. The tools have no
 * `execute`, so the AI SDK makes one model call and hands the calls back: openmic's step loop runs
 * them (validating the arguments with the tool's zod schema, recording errors as tool results).
 */
export function prepareAiSdkTools(tools: readonly Tool[]): ToolSet {
  const set: ToolSet = {}
  for (const agentTool of tools) {
    const { schema, strict } = toolJsonSchema(agentTool)
    set[agentTool.name] = tool({
      description: agentTool.description,
      inputSchema: jsonSchema(schema),
      strict,
    })
  }
  return set
}
