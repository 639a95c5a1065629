import type { ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { sendErrorReply, type RecordedExchange } from './recorded-exchange.js'
import { sseFrame } from './sse-frame.js'
import {
  DEFAULT_FAKE_USAGE,
  type FakePart,
  type FakeResponse,
  type RecordedRequest,
  type SseDialect,
  type StreamEncoder,
} from './types.js'

/** What playing a response needs besides the response itself. */
export interface PlayContext extends RecordedExchange<RecordedRequest> {
  dialect: SseDialect
  res: ServerResponse
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
    case 'error':
      return sendErrorReply(res, {
        ...response,
        body: response.body ?? dialect.errorBody(response.status, `Fake error ${response.status}`),
      })
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
  // Consecutive writes leave in one packet; flush() sends them before any wait.
  let corked = false
  const write = (data: string) => {
    if (!corked) res.cork()
    corked = true
    res.write(data)
  }
  const flush = () => {
    if (corked) res.uncork()
    corked = false
  }
  const writeEvents = async (events: unknown[]) => {
    for (const event of events) {
      if (!open()) return
      write(sseFrame(dialect, event))
    }
    if (events.length > 0 && response.partDelayMs) {
      flush()
      await sleep(response.partDelayMs)
    }
  }
  if (envelope) await writeEvents(encoder.start())
  for (const part of response.parts) {
    if (!open()) return
    if (part.type === 'raw') write(part.text)
    else if (part.type === 'text' || part.type === 'reasoning' || part.type === 'tool-call') {
      await writeEvents(partEvents(part, encoder))
    } else if (part.type === 'event') await writeEvents([part.data])
    else {
      flush()
      if (part.type === 'delay') await sleep(part.ms)
      else if (part.type === 'stall') return void (await context.closed)
      else return context.reset()
    }
  }
  if (envelope) await writeEvents(encoder.finish(response.usage ?? DEFAULT_FAKE_USAGE))
  if (!open()) return
  if ((response.terminator ?? true) && dialect.terminator) write(dialect.terminator)
  flush()
  res.end()
}

let callCounter = 0

function partEvents(
  part: Extract<FakePart, { type: 'text' | 'reasoning' | 'tool-call' }>,
  encoder: StreamEncoder
): unknown[] {
  switch (part.type) {
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
