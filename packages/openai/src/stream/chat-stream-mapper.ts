import { ToolCallAssembler, type EmitPart, type ModelEventMapper } from '@openmic/core/provider'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'

/** Fields some compatible servers add to a chat delta (DeepSeek, vLLM, Ollama, OpenRouter). */
interface ReasoningDelta {
  reasoning_content?: string | null
  reasoning?: string | null
}

/**
 * Maps Chat Completions chunks onto model parts: content (and refusal) deltas are spoken,
 * `reasoning_content` / `reasoning` deltas are a sign of life, and tool-call deltas are assembled
 * (by `index`, else id) into complete calls emitted by `finish()` when the stream ends; the usage
 * chunk reports the tokens. One per
 * stream; plain calls, not a stream stage, so that no async layer is added to every delta.
 */
export class ChatStreamMapper implements ModelEventMapper<ChatCompletionChunk> {
  private readonly toolCalls = new ToolCallAssembler()
  private lastToolKey: string | number = 0

  /** Emits the parts of one chunk, in order. */
  map(chunk: ChatCompletionChunk, emit: EmitPart): void {
    // The last chunk, when the request asked for it (`stream_options.include_usage`)
    if (chunk.usage) {
      const { prompt_tokens, completion_tokens } = chunk.usage
      emit({
        type: 'usage',
        usage: { inputTokens: prompt_tokens, outputTokens: completion_tokens },
      })
    }
    const delta = chunk.choices?.[0]?.delta
    if (!delta) return
    const reasoning =
      (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning
    if (reasoning) emit({ type: 'reasoning', delta: reasoning })
    emitContent(emit, delta.content as unknown)
    if (delta.refusal) emit({ type: 'text', delta: delta.refusal })
    if (delta.tool_calls) this.addToolCalls(delta.tool_calls, emit)
  }

  /** Emits the assembled tool calls, once the stream has ended. */
  finish(emit: EmitPart): void {
    for (const toolCall of this.toolCalls.finish()) emit({ type: 'tool-call', toolCall })
  }

  /** Adds tool-call pieces; a new call is a sign of life. */
  private addToolCalls(calls: ChatCompletionChunk.Choice.Delta.ToolCall[], emit: EmitPart): void {
    for (const call of calls) {
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
      if (this.toolCalls.size > before) emit({ type: 'reasoning' })
    }
  }
}

/**
 * Emits a delta's content: a string, or (some compatible servers, e.g. Mistral's reasoning models)
 * an array of typed parts whose `text` parts are spoken and `thinking` parts are reasoning.
 */
function emitContent(emit: EmitPart, content: unknown): void {
  if (typeof content === 'string') {
    if (content) emit({ type: 'text', delta: content })
    return
  }
  if (!Array.isArray(content)) return
  for (const piece of content as Array<{ type?: unknown; text?: unknown }>) {
    if (piece?.type === 'text' && typeof piece.text === 'string' && piece.text) {
      emit({ type: 'text', delta: piece.text })
    } else if (piece?.type === 'thinking') {
      emit({ type: 'reasoning' })
    }
  }
}
