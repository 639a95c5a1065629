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

  /** The parts of one chunk, in order. */
  map(chunk: ChatCompletionChunk): ModelStreamPart[] {
    const delta = chunk.choices?.[0]?.delta
    if (!delta) return []
    const parts: ModelStreamPart[] = []
    const reasoning =
      (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning
    if (reasoning) parts.push({ type: 'reasoning', delta: reasoning })
    if (delta.content) parts.push({ type: 'text', delta: delta.content })
    if (delta.refusal) parts.push({ type: 'text', delta: delta.refusal })
    for (const call of delta.tool_calls ?? []) {
      const before = this.toolCalls.size
      this.toolCalls.add({
        key: call.index ?? call.id ?? 0,
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
