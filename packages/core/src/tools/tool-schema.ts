import { z } from 'zod'
import type { Tool } from './Tool.js'

const noArguments = z.object({})

/** The zod schema of a tool's arguments: `parameters`, else `inputSchema`, else an empty object. */
export function getToolSchema(tool: Tool): z.ZodObject {
  return tool.parameters ?? tool.inputSchema ?? noArguments
}

/** JSON Schema of a tool's arguments, ready to send to a model API. */
export interface ToolJsonSchema {
  /** The JSON Schema object (no `$schema` key). */
  schema: Record<string, unknown>
  /**
   * True when the schema fits the "strict" mode of OpenAI-style APIs: every object lists all its
   * properties as required and allows no others. Optional fields or loose objects make it false.
   */
  strict: boolean
}

/**
 * Converts a tool's zod schema to JSON Schema with zod's own `z.toJSONSchema`, describing what
 * the model must send (the schema's input side).
 */
export function toolJsonSchema(tool: Tool): ToolJsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(getToolSchema(tool), {
    io: 'input',
  }) as Record<string, unknown>
  const strict = closeObjects(schema)
  return { schema, strict }
}

/**
 * Walks a JSON Schema, marking objects without `additionalProperties` as closed (zod objects strip
 * unknown keys, so the model should not send any). Returns whether the whole schema is strict.
 */
function closeObjects(node: unknown): boolean {
  if (Array.isArray(node)) return node.map(closeObjects).every(Boolean)
  if (!node || typeof node !== 'object') return true
  const schema = node as Record<string, unknown>
  let strict = true
  if (schema.type === 'object') {
    if (schema.additionalProperties === undefined) schema.additionalProperties = false
    if (schema.additionalProperties !== false) strict = false
    const properties = Object.keys((schema.properties as object | undefined) ?? {})
    const required = new Set((schema.required as string[] | undefined) ?? [])
    if (properties.some((name) => !required.has(name))) strict = false
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && typeof value !== 'object') continue
    if (!closeObjects(value)) strict = false
  }
  return strict
}
