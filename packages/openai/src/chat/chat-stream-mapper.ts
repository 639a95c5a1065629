import { ToolCallAssembler, type ModelStreamPart } from '@openmic/core'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'

/** Fields some compatible servers add to a chat delta (DeepSeek, vLLM, Ollama, OpenRouter). */
interface ReasoningDelta {
  reasoning_content?: string | null
  reasoning?: string | null
}

/**
 * Maps Chat Completions chunks onto model parts: content (and refusal) deltas are spoken,
 * `reasoning_content` / `reasoning` deltas are a sign of life, and tool-call deltas are assembled
 * (by `index`, else id) into complete calls given by `finish()` when the stream ends. One per
 * stream; plain calls, not a stream stage, so that no async layer is added to every delta.
 */
export class ChatStreamMapper {
  private readonly toolCalls = new ToolCallAssembler()
  private lastToolKey: string | number = 0

  /** The parts of one chunk, in order. */
  map(chunk: ChatCompletionChunk): ModelStreamPart[] {
    const delta = chunk.choices?.[0]?.delta
    if (!delta) return []
    const parts: ModelStreamPart[] = []
    const reasoning =
      (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning
    if (reasoning) parts.push({ type: 'reasoning', delta: reasoning })
    addContent(parts, delta.content as unknown)
    if (delta.refusal) parts.push({ type: 'text', delta: delta.refusal })
    for (const call of delta.tool_calls ?? []) {
      const before = this.toolCalls.size
      // Servers that omit `index` tie the pieces by id, or send the rest without either.
      const key = call.index ?? call.id ?? this.lastToolKey
      this.lastToolKey = key
      this.toolCalls.add({
        key,
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
      })
      if (this.toolCalls.size > before) parts.push({ type: 'reasoning' })
    }
    return parts
  }

  /** The assembled tool calls, once the stream has ended. */
  finish(): ModelStreamPart[] {
    return this.toolCalls.finish().map((toolCall) => ({ type: 'tool-call', toolCall }))
  }
}

/**
 * Adds a delta's content: a string, or (some compatible servers, e.g. Mistral's reasoning models)
 * an array of typed parts whose `text` parts are spoken and `thinking` parts are reasoning.
 */
function addContent(parts: ModelStreamPart[], content: unknown): void {
  if (typeof content === 'string') {
    if (content) parts.push({ type: 'text', delta: content })
    return
  }
  if (!Array.isArray(content)) return
  for (const piece of content as Array<{ type?: unknown; text?: unknown }>) {
    if (piece?.type === 'text' && typeof piece.text === 'string' && piece.text) {
      parts.push({ type: 'text', delta: piece.text })
    } else if (piece?.type === 'thinking') {
      parts.push({ type: 'reasoning' })
    }
  }
}
