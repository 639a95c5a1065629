import { z } from 'zod'
import type { Tool } from '@openmic/core'

export const TIME_TOOL_NAME = 'get_time'

const parameters = z.object({})

/** A real tool: tells the current time, as the `get_time` function an LLM would call. */
export function createTimeTool(now: () => Date, timeZone?: string): Tool<typeof parameters> {
  return {
    name: TIME_TOOL_NAME,
    description: 'Get the current time',
    parameters,
    emitOutput: true,
    execute: () => {
      const date = now()
      const time = date.toLocaleTimeString('en-US', {
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      })
      return { time, iso: date.toISOString() }
    },
  }
}
