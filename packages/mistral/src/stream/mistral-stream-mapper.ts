import type { SseMessage } from '@mistralai/mistralai/lib/event-streams.js'
import {
  ToolCallAssembler,
  type EmitPart,
  type ModelEventMapper,
  type ToolCallDelta,
} from '@openmic/core/provider'
import { MistralStreamError } from '../errors/MistralStreamError.js'
import type { MistralChunk, MistralContentPart, MistralToolCallPiece } from './types.js'

/**
 * Maps Mistral's streamed chat chunks onto the parts core's step loop consumes. One per stream:
 *
 * - `delta.content` as a string, or as an array of typed parts: `text` parts become text,
 *   `thinking` parts become reasoning (a sign of life, never spoken).
 * - `delta.tool_calls`, whole or in pieces, are assembled with core's `ToolCallAssembler` and
 *   emitted once the stream ended, ready to execute.
 * - `usage` (on the last chunk) reports the tokens; a chunk without choices or delta
 *   (keep-alive) is skipped otherwise.
 * - `finish_reason: "error"`, or a stream that ends without any finish reason, throws a
 *   {@link MistralStreamError} (a broken stream: core keeps the text or retries).
 */
export class MistralStreamMapper implements ModelEventMapper<SseMessage<MistralChunk>> {
  private readonly assembler = new ToolCallAssembler()
  private readonly toolCallKeys = new ToolCallKeys()
  private finishReason: string | null = null

  map(event: SseMessage<MistralChunk>, emit: EmitPart): void {
    const usage = event.data?.usage
    if (usage) {
      emit({
        type: 'usage',
        usage: {
          inputTokens: usage.prompt_tokens ?? undefined,
          outputTokens: usage.completion_tokens ?? undefined,
        },
      })
    }
    const choice = event.data?.choices?.[0]
    if (!choice) return
    const content = choice.delta?.content
    if (typeof content === 'string') {
      if (content !== '') emit({ type: 'text', delta: content })
    } else if (Array.isArray(content)) {
      emitContentParts(content, emit)
    }
    for (const call of choice.delta?.tool_calls ?? []) {
      this.assembler.add(this.toolCallKeys.delta(call))
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason
  }

  finish(emit: EmitPart): void {
    if (this.finishReason === 'error') {
      throw new MistralStreamError('the stream ended with an error')
    }
    if (this.finishReason === null) {
      throw new MistralStreamError('the stream ended without a finish reason')
    }
    for (const toolCall of this.assembler.finish()) emit({ type: 'tool-call', toolCall })
  }
}

function emitContentParts(parts: MistralContentPart[], emit: EmitPart): void {
  for (const part of parts) {
    if (part.type === 'text' && 'text' in part && part.text) {
      emit({ type: 'text', delta: part.text })
    } else if (part.type === 'thinking' && 'thinking' in part) {
      for (const inner of part.thinking ?? []) {
        emit({ type: 'reasoning', delta: inner.type === 'text' ? (inner.text ?? '') : undefined })
      }
    }
  }
}

/**
 * Ties the pieces of a tool call together. Mistral sends each call whole, with an id and no
 * `index`; compatible servers send an id and index on the first piece only. So: an id is the
 * key, and a piece without one continues the last call started at its index.
 */
class ToolCallKeys {
  private readonly lastAtIndex = new Map<number, string | number>()

  delta(call: MistralToolCallPiece): ToolCallDelta {
    const index = call.index ?? 0
    const id = call.id || undefined
    const key = id ?? this.lastAtIndex.get(index) ?? index
    this.lastAtIndex.set(index, key)
    const args = call.function?.arguments
    return {
      key,
      id,
      name: call.function?.name || undefined,
      arguments:
        typeof args === 'string' || args == null ? (args ?? undefined) : JSON.stringify(args),
    }
  }
}
