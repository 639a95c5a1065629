import type {
  CompletionEvent,
  ContentChunk,
  ToolCall,
} from '@mistralai/mistralai/models/components'
import { ToolCallAssembler, type ModelStreamPart, type ToolCallDelta } from '@openmic/core'
import { MistralStreamError } from '../errors/mistral-stream-error.js'

/**
 * Maps Mistral's streamed chat chunks onto the parts core's step loop consumes:
 *
 * - `delta.content` as a string, or as an array of typed parts: `text` parts become text,
 *   `thinking` parts become reasoning (a sign of life, never spoken).
 * - `delta.toolCalls`, whole or in pieces, are assembled with core's `ToolCallAssembler` and
 *   yielded once the stream ended, ready to execute.
 * - `finish_reason: "error"`, or a stream that ends without any finish reason, throws a
 *   {@link MistralStreamError} (a broken stream: core keeps or retries, as for any provider).
 */
export async function* mapMistralStream(
  events: AsyncIterable<CompletionEvent>
): AsyncGenerator<ModelStreamPart> {
  const assembler = new ToolCallAssembler()
  const keys = new ToolCallKeys()
  let finishReason: string | null = null
  for await (const event of events) {
    const choice = event.data.choices[0]
    if (!choice) continue
    const { content, toolCalls } = choice.delta
    if (typeof content === 'string') {
      if (content !== '') yield { type: 'text', delta: content }
    } else if (content) {
      yield* contentParts(content)
    }
    for (const call of toolCalls ?? []) assembler.add(keys.delta(call))
    if (choice.finishReason) finishReason = choice.finishReason
  }
  if (finishReason === 'error')
    throw new MistralStreamError('Mistral ended the stream with an error')
  if (finishReason === null)
    throw new MistralStreamError('Mistral stream ended without a finish reason')
  for (const toolCall of assembler.finish()) yield { type: 'tool-call', toolCall }
}

function* contentParts(parts: ContentChunk[]): Generator<ModelStreamPart> {
  for (const part of parts) {
    if (part.type === 'text' && 'text' in part) {
      if (part.text !== '') yield { type: 'text', delta: part.text }
    } else if (part.type === 'thinking' && 'thinking' in part) {
      for (const inner of part.thinking) {
        yield { type: 'reasoning', delta: inner.type === 'text' ? inner.text : undefined }
      }
    }
  }
}

/**
 * Ties the pieces of a tool call together. Mistral sends each call whole, with an id and no
 * `index` (the SDK then reads index 0 and, without an id, the string "null"); compatible servers
 * send an id and index on the first piece only. So: a real id is the key, and a piece without
 * one continues the last call started at its index.
 */
class ToolCallKeys {
  private readonly lastAtIndex = new Map<number, string | number>()

  delta(call: ToolCall): ToolCallDelta {
    const index = call.index ?? 0
    const id = call.id && call.id !== 'null' ? call.id : undefined
    const key = id ?? this.lastAtIndex.get(index) ?? index
    this.lastAtIndex.set(index, key)
    const args = call.function.arguments
    return {
      key,
      id,
      name: call.function.name || undefined,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    }
  }
}
