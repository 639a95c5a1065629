import type { ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { sseFrame } from './sse-frame.js'
import type { FakePart, FakeResponse, RecordedRequest, SseDialect, StreamEncoder } from './types.js'

/** What playing a response needs besides the response itself. */
export interface PlayContext {
  dialect: SseDialect
  request: RecordedRequest
  res: ServerResponse
  /** Resolves when the connection closed (client abort, reset, server shutdown). */
  closed: Promise<void>
  /** Destroys the connection on purpose (so it is not counted as a client abort). */
  reset(): Promise<void>
}

/** Writes one scripted response to `res`. Stops early once the connection is closed. */
export async function playResponse(response: FakeResponse, context: PlayContext): Promise<void> {
  const { res, dialect } = context
  switch (response.type) {
    case 'reset':
      return context.reset()
    case 'stall':
      await context.closed
      return
    case 'error': {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (response.retryAfter !== undefined) headers['retry-after'] = String(response.retryAfter)
      Object.assign(headers, response.headers)
      const body =
        response.body ?? dialect.errorBody(response.status, `Fake error ${response.status}`)
      res.writeHead(response.status, headers)
      res.end(typeof body === 'string' ? body : JSON.stringify(body))
      return
    }
    case 'stream':
      await playStream(response, context)
  }
}

async function playStream(
  response: Extract<FakeResponse, { type: 'stream' }>,
  context: PlayContext
): Promise<void> {
  const { res, dialect } = context
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...response.headers,
  })
  res.flushHeaders()
  const encoder = dialect.createEncoder(context.request)
  const envelope = response.envelope ?? true
  const open = () => res.writable && !res.destroyed
  const writeEvents = async (events: unknown[]) => {
    for (const event of events) {
      if (!open()) return
      res.write(sseFrame(dialect, event))
    }
    if (events.length > 0 && response.partDelayMs) await sleep(response.partDelayMs)
  }
  if (envelope) await writeEvents(encoder.start())
  for (const part of response.parts) {
    if (!open()) return
    if (part.type === 'delay') await sleep(part.ms)
    else if (part.type === 'stall') return void (await context.closed)
    else if (part.type === 'reset') return context.reset()
    else if (part.type === 'raw') res.write(part.text)
    else await writeEvents(partEvents(part, encoder))
  }
  if (envelope) await writeEvents(encoder.finish())
  if (!open()) return
  if ((response.terminator ?? true) && dialect.terminator) res.write(dialect.terminator)
  res.end()
}

let callCounter = 0

function partEvents(
  part: Exclude<FakePart, { type: 'delay' | 'stall' | 'reset' | 'raw' }>,
  encoder: StreamEncoder
): unknown[] {
  switch (part.type) {
    case 'event':
      return [part.data]
    case 'text':
      return encoder.text(part.delta)
    case 'reasoning':
      return encoder.reasoning(part.delta)
    case 'tool-call': {
      const json =
        typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments ?? {})
      return encoder.toolCall({
        id: part.id ?? `call_fake_${++callCounter}`,
        name: part.name,
        chunks: splitInChunks(json, part.argumentChunks ?? 1),
      })
    }
  }
}

/** Cuts `text` into `count` pieces of about the same length (at least one piece). */
export function splitInChunks(text: string, count: number): string[] {
  const pieces = Math.max(1, Math.min(count, text.length))
  const size = Math.ceil(text.length / pieces)
  const chunks: string[] = []
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size))
  return chunks.length > 0 ? chunks : ['']
}
