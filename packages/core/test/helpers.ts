import type { Readable } from 'node:stream'
import { Agent } from '../src/agent/Agent.js'
import { AGENT_EVENT_NAMES, type AgentEvents } from '../src/agent/types.js'

/** Reads a whole answer stream as text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += chunk.toString()
  return text
}

/** The events that report timings (`ModelCallEnd`...), left out of {@link recordEvents}. */
const REPORT_EVENTS: ReadonlySet<string> = new Set(['ModelCallEnd', 'ToolCallEnd', 'Fallback'])

/**
 * Records every event an agent emits, in order, as `[name, ...args]`; the report events only
 * with `reports`.
 */
export function recordEvents(
  agent: Agent,
  { reports = false } = {}
): Array<[keyof AgentEvents, ...unknown[]]> {
  const events: Array<[keyof AgentEvents, ...unknown[]]> = []
  for (const name of AGENT_EVENT_NAMES) {
    if (!reports && REPORT_EVENTS.has(name)) continue
    agent.on(name, (...args: unknown[]) => events.push([name, ...args]))
  }
  return events
}

/** Resolves after `ms` milliseconds. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Answers, cancels as soon as the first chunk arrives, and returns the chunks received. */
export async function cancelOnFirstChunk(agent: Agent): Promise<string[]> {
  const stream = agent.answer()
  const chunks: string[] = []
  stream.on('data', (chunk) => {
    chunks.push(chunk.toString())
    agent.cancel()
  })
  await new Promise((resolve) => stream.on('end', resolve))
  return chunks
}

/** An agent whose every answer fails at once with `message` (thrown by `generateAnswer`). */
export function brokenAgent(message: string): Agent {
  class Broken extends Agent {
    protected async generateAnswer(): Promise<void> {
      throw new Error(message)
    }
    cancel() {}
  }
  return new Broken({ systemPrompt: 's' })
}
