import { z } from 'zod'
import type { MicdropConversationToolCall } from '../conversation/types.js'
import { errorMessage } from '../retry/errors.js'
import type { Tool } from './Tool.js'
import { getToolSchema } from './tool-schema.js'

/** The outcome of one tool call. */
export interface ToolRunResult {
  /** Validated arguments (defaults applied), when they were valid. */
  input?: unknown
  /** What the tool returned, or `{ error }` when the call failed. */
  output: unknown
  /** `output` encoded once as JSON, for the `tool_result` item. */
  encodedOutput: string
  /** Why the call failed: unknown tool, invalid JSON, arguments rejected, or the tool threw. */
  error?: string
}

/**
 * Parses, validates and runs one tool call. Never throws: every failure becomes an `{ error }`
 * output the model can read and react to.
 */
export async function runTool(
  tool: Tool | undefined,
  toolCall: MicdropConversationToolCall,
  agent: Parameters<NonNullable<Tool['execute']>>[1]
): Promise<ToolRunResult> {
  if (!tool) return failure(`Unknown tool "${toolCall.toolName}"`)

  let json: unknown
  try {
    json = JSON.parse(toolCall.parameters)
  } catch (error) {
    return failure(`Invalid JSON arguments for tool "${tool.name}": ${errorMessage(error)}`)
  }
  const parsed = getToolSchema(tool).safeParse(json)
  if (!parsed.success) {
    return failure(`Invalid arguments for tool "${tool.name}": ${z.prettifyError(parsed.error)}`)
  }

  try {
    const output = tool.execute ? await tool.execute(parsed.data, agent) : null
    return { input: parsed.data, output, encodedOutput: encodeOutput(output) }
  } catch (error) {
    return { input: parsed.data, ...failure(`Tool "${tool.name}" failed: ${errorMessage(error)}`) }
  }
}

function failure(message: string): ToolRunResult {
  const output = { error: message }
  return { output, encodedOutput: JSON.stringify(output), error: message }
}

function encodeOutput(output: unknown): string {
  try {
    return JSON.stringify(output ?? null)
  } catch (error) {
    return JSON.stringify({ error: `Tool output is not JSON: ${errorMessage(error)}` })
  }
}
