import type { z } from 'zod'
import type { Agent } from '../agent/Agent.js'

/**
 * A function the model can call.
 *
 * @example
 * const weatherTool: Tool<typeof schema> = {
 *   name: 'get_weather',
 *   description: 'Get current weather for a location',
 *   parameters: z.object({ location: z.string().describe('The city name') }),
 *   execute: async ({ location }) => ({ temperature: 22, conditions: 'sunny' }),
 * }
 */
export interface Tool<Schema extends z.ZodObject = z.ZodObject> {
  /** Name the model calls the tool by (letters, digits, `_` and `-`). */
  name: string
  /** Tells the model what the tool does and when to call it. */
  description: string
  /** zod object schema of the arguments. Without one, the tool takes no arguments. */
  parameters?: Schema
  /** Alias of `parameters`, as older Micdrop code names it. `parameters` wins when both are set. */
  inputSchema?: Schema
  /**
   * Runs the tool with arguments already validated by the schema. The agent that called it is passed
   * so a tool can be shared between agents. The return value is encoded once as JSON and sent back
   * to the model; a thrown error is sent back as `{ "error": message }`.
   */
  execute?(input: z.infer<Schema>, agent: Agent): unknown
  /** Emit the agent's `ToolCall` event (and the server's `ToolCall` message) with the output. */
  emitOutput?: boolean
  /** End the turn silently after this tool ran: no answer is generated. */
  skipAnswer?: boolean
}
