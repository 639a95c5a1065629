import type {
  CompletionEvent,
  ContentChunk,
  ToolCall,
} from '@mistralai/mistralai/models/components'
import {
  ModelEventStream,
  ToolCallAssembler,
  type EmitPart,
  type ModelEventMapper,
  type ToolCallDelta,
} from '@openmic/core/provider'
import { MistralStreamError } from '../errors/mistral-stream-error.js'

/**
 * Maps Mistral's streamed chat chunks (or the pending request that opens them) onto the parts core's step loop consumes:
 *
 * - `delta.content` as a string, or as an array of typed parts: `text` parts become text,
 *   `thinking` parts become reasoning (a sign of life, never spoken).
 * - `delta.toolCalls`, whole or in pieces, are assembled with core's `ToolCallAssembler` and
 *   emitted once the stream ended, ready to execute.
 * - `finish_reason: "error"`, or a stream that ends without any finish reason, throws a
 *   {@link MistralStreamError} (a broken stream: core keeps or retries, as for any provider).
 *
 * The result is an `AsyncIterable` of parts; core's step loop maps each chunk as it arrives,
 * without an async step per part. `mapError` turns what the request or the stream throws into the
 * error the model call fails with (MistralAgent passes `toAgentError`).
 */
export function mapMistralStream(
  stream: AsyncIterable<CompletionEvent> | Promise<AsyncIterable<CompletionEvent>>,
  mapError?: (error: unknown) => unknown
): ModelEventStream<CompletionEvent> {
  return new ModelEventStream(stream, new MistralEventMapper(), mapError)
}

/** Maps the chunks of one stream; keeps the tool-call pieces and the finish reason seen so far. */
class MistralEventMapper implements ModelEventMapper<CompletionEvent> {
  private readonly assembler = new ToolCallAssembler()
  /** Made at the first tool-call piece (see `ToolCallAssembler`). */
  private keys?: ToolCallKeys
  private finishReason: string | null = null

  map(event: CompletionEvent, emit: EmitPart): void {
    const choice = event.data.choices[0]
    if (!choice) return
    const { content, toolCalls } = choice.delta
    if (typeof content === 'string') {
      if (content !== '') emit({ type: 'text', delta: content })
    } else if (content) {
      emitContentParts(content, emit)
    }
    if (toolCalls) {
      const keys = (this.keys ??= new ToolCallKeys())
      for (const call of toolCalls) this.assembler.add(keys.delta(call))
    }
    if (choice.finishReason) this.finishReason = choice.finishReason
  }

  finish(emit: EmitPart): void {
    if (this.finishReason === 'error')
      throw new MistralStreamError('Mistral ended the stream with an error')
    if (this.finishReason === null)
      throw new MistralStreamError('Mistral stream ended without a finish reason')
    for (const toolCall of this.assembler.finish()) emit({ type: 'tool-call', toolCall })
  }
}

function emitContentParts(parts: ContentChunk[], emit: EmitPart): void {
  for (const part of parts) {
    if (part.type === 'text' && 'text' in part) {
      if (part.text !== '') emit({ type: 'text', delta: part.text })
    } else if (part.type === 'thinking' && 'thinking' in part) {
      for (const inner of part.thinking) {
        emit({ type: 'reasoning', delta: inner.type === 'text' ? inner.text : undefined })
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
