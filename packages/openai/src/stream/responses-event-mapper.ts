import type { ModelEventMapper, ModelStreamPart } from '@openmic/core/provider'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { OpenaiStreamError, textField } from '../errors/OpenaiStreamError.js'

/**
 * Maps one Responses API stream event onto a model part, if it makes one: text (and refusal)
 * deltas are spoken, reasoning is a sign of life, each completed `function_call` item is a tool
 * call, `response.completed` reports the usage. An `error` or `response.failed` event throws an {@link OpenaiStreamError} with the API's
 * code. A plain function, not a stream stage: each async layer would add latency to every delta.
 */
export function mapResponsesEvent(event: ResponseStreamEvent): ModelStreamPart | undefined {
  switch (event.type) {
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      return event.delta ? { type: 'text', delta: event.delta } : undefined
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return { type: 'reasoning', delta: event.delta }
    case 'response.output_item.added':
      return event.item.type === 'reasoning' || event.item.type === 'function_call'
        ? { type: 'reasoning' }
        : undefined
    case 'response.output_item.done': {
      if (event.item.type !== 'function_call') return undefined
      const { call_id, name, arguments: args } = event.item
      return {
        type: 'tool-call',
        toolCall: {
          role: 'tool_call',
          toolCallId: call_id,
          toolName: name,
          parameters: args.trim() === '' ? '{}' : args,
        },
      }
    }
    case 'response.completed': {
      const usage = event.response.usage
      return usage
        ? {
            type: 'usage',
            usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens },
          }
        : undefined
    }
    case 'error':
      throw streamError(event)
    case 'response.failed':
      throw streamError(event.response.error ?? { message: 'The response failed' })
    default:
      return undefined
  }
}

/** {@link mapResponsesEvent} as the mapper of a `ModelEventStream` (it keeps no state). */
export const responsesEventMapper: ModelEventMapper<ResponseStreamEvent> = {
  map(event, emit) {
    const part = mapResponsesEvent(event)
    if (part) emit(part)
  },
}

/** The error of an `error` event (fields at the top or under `error`) or of a failed response. */
function streamError(source: object): OpenaiStreamError {
  const nested = (source as { error?: unknown }).error
  const details = (nested && typeof nested === 'object' ? nested : source) as {
    message?: unknown
    code?: unknown
    type?: unknown
  }
  const message = typeof details.message === 'string' ? details.message : 'The response failed'
  return new OpenaiStreamError(message, {
    code: textField(details.code),
    type: textField(details.type),
  })
}
