import type { MicdropConversationToolCall } from '@openmic/core'
import type { EmitPart, ModelEventMapper } from '@openmic/core/provider'
import type { ProviderMetadata, TextStreamPart, ToolSet } from 'ai'
import { toAiSdkError } from '../errors/to-ai-sdk-error.js'

/** One part of `streamText`'s `fullStream`. */
export type AiSdkStreamPart = TextStreamPart<ToolSet>

/**
 * Maps the parts of `streamText`'s `fullStream` onto the parts core's step loop consumes. One per
 * model call:
 *
 * - `text-delta` is spoken text; `reasoning-*` and `tool-input-start` are signs of life (for the
 *   first-token timeout), never spoken.
 * - `tool-call` is a complete call (the AI SDK assembles its input), handed to core to run. Calls
 *   the provider ran itself are left out; an input the SDK could not parse is passed on as it came,
 *   so that core records the error as the tool's result. What the provider attached to a call is
 *   kept, to be sent back with it.
 * - `finish-step` reports the tokens the call used (`usage`), when the provider counts them.
 * - `error` throws (see {@link toAiSdkError}): core keeps the text already spoken, or retries.
 * - Bookkeeping parts (`start`, `text-start`, `source`, ...) are skipped.
 */
export class AiSdkStreamMapper implements ModelEventMapper<AiSdkStreamPart> {
  /**
   * @param toolCallMetadata Where the metadata a provider attaches to a tool call is kept, to be
   *   sent back with the call (see `convertToModelMessages`).
   */
  constructor(private readonly toolCallMetadata?: Map<string, ProviderMetadata>) {}

  map(part: AiSdkStreamPart, emit: EmitPart): void {
    switch (part.type) {
      case 'text-delta':
        if (part.text) emit({ type: 'text', delta: part.text })
        return
      case 'reasoning-delta':
        emit({ type: 'reasoning', delta: part.text })
        return
      case 'reasoning-start':
      case 'tool-input-start':
        emit({ type: 'reasoning' })
        return
      case 'tool-call':
        if (part.providerExecuted) return
        if (part.providerMetadata) {
          this.toolCallMetadata?.set(part.toolCallId, part.providerMetadata)
        }
        emit({ type: 'tool-call', toolCall: toToolCall(part) })
        return
      case 'finish-step': {
        const { inputTokens, outputTokens } = part.usage
        if (inputTokens !== undefined || outputTokens !== undefined)
          emit({ type: 'usage', usage: { inputTokens, outputTokens } })
        return
      }
      case 'error':
        throw toAiSdkError(part.error)
    }
  }
}

function toToolCall(part: Extract<AiSdkStreamPart, { type: 'tool-call' }>) {
  const { input } = part
  const toolCall: MicdropConversationToolCall = {
    role: 'tool_call',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    parameters: typeof input === 'string' ? input : JSON.stringify(input ?? {}),
  }
  return toolCall
}
