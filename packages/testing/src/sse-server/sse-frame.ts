import type { SseDialect } from './types.js'

/**
 * Frames one wire event as SSE. A string is taken as the event's JSON text and sent byte for byte
 * (fixture replay); any other value is JSON-encoded.
 */
export function sseFrame(dialect: SseDialect, data: unknown): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data)
  const value = typeof data === 'string' ? parseOrUndefined(data) : data
  const name = dialect.eventName?.(value)
  return `${name ? `event: ${name}\n` : ''}data: ${json}\n\n`
}

function parseOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json)
  } catch {
    return undefined
  }
}
