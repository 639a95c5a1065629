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
 * (by `index`, else id) into complete calls emitted when the stream ends.
 */
export async function* mapChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>
): AsyncGenerator<ModelStreamPart> {
  const toolCalls = new ToolCallAssembler()
  for await (const chunk of chunks) {
    const delta = chunk.choices?.[0]?.delta
    if (!delta) continue
    const reasoning =
      (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning
    if (reasoning) yield { type: 'reasoning', delta: reasoning }
    if (delta.content) yield { type: 'text', delta: delta.content }
    if (delta.refusal) yield { type: 'text', delta: delta.refusal }
    for (const call of delta.tool_calls ?? []) {
      const before = toolCalls.size
      toolCalls.add({
        key: call.index ?? call.id ?? 0,
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
      })
      if (toolCalls.size > before) yield { type: 'reasoning' }
    }
  }
  for (const toolCall of toolCalls.finish()) yield { type: 'tool-call', toolCall }
}
