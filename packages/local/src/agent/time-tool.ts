import type { Tool } from '@openmic/core'

export const TIME_TOOL_NAME = 'get_current_time'

/** What the time tool returns: the time to say, and the exact instant. */
export interface TimeToolOutput {
  /** Hours and minutes as spoken, e.g. `10:42 PM`. */
  time: string
  timeZone: string
  iso: string
}

/** A tool that reads the clock. */
export function createTimeTool(now: () => Date, timeZone?: string): Tool {
  return {
    name: TIME_TOOL_NAME,
    description: 'Get the current time. Call this when the user asks what time it is.',
    execute: (): TimeToolOutput => {
      const date = now()
      const format = new Intl.DateTimeFormat('en-US', {
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      })
      return {
        time: format.format(date),
        timeZone: format.resolvedOptions().timeZone,
        iso: date.toISOString(),
      }
    },
  }
}
