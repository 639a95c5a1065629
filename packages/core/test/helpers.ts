import type { Readable } from 'node:stream'
import { Agent } from '../src/agent/Agent.js'
import type { AgentEvents } from '../src/agent/types.js'

/** Reads a whole answer stream as text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += chunk.toString()
  return text
}

/** Records every event an agent emits, in order, as `[name, ...args]`. */
export function recordEvents(agent: Agent): Array<[keyof AgentEvents, ...unknown[]]> {
  const events: Array<[keyof AgentEvents, ...unknown[]]> = []
  const names: Array<keyof AgentEvents> = [
    'Message',
    'ToolMessage',
    'CancelLastUserMessage',
    'SkipAnswer',
    'EndCall',
    'ToolCall',
    'Failed',
  ]
  for (const name of names) {
    agent.on(name, (...args: unknown[]) => events.push([name, ...args]))
  }
  return events
}

/** Resolves after `ms` milliseconds. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
