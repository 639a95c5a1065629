import type { ModelStreamPart } from '@openmic/core'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { OpenaiStreamError } from '../errors/OpenaiStreamError.js'

/**
 * Maps Responses API stream events onto model parts: text (and refusal) deltas are spoken, reasoning
 * is a sign of life, each completed `function_call` item is a tool call. An `error` or
 * `response.failed` event throws an {@link OpenaiStreamError} with the API's code.
 */
export async function* mapResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>
): AsyncGenerator<ModelStreamPart> {
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta) yield { type: 'text', delta: event.delta }
        break
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        yield { type: 'reasoning', delta: event.delta }
        break
      case 'response.output_item.added':
        if (event.item.type === 'reasoning' || event.item.type === 'function_call') {
          yield { type: 'reasoning' }
        }
        break
      case 'response.output_item.done':
        if (event.item.type === 'function_call') {
          const { call_id, name, arguments: args } = event.item
          yield {
            type: 'tool-call',
            toolCall: {
              role: 'tool_call',
              toolCallId: call_id,
              toolName: name,
              parameters: args.trim() === '' ? '{}' : args,
            },
          }
        }
        break
      case 'error':
        throw streamError(event)
      case 'response.failed':
        throw streamError(event.response.error ?? { message: 'The response failed' })
    }
  }
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
  return new OpenaiStreamError(message, { code: details.code, type: details.type })
}
