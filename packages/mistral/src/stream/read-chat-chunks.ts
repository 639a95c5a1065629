import { EventStream, type SseMessage } from '@mistralai/mistralai/lib/event-streams.js'
import type { MistralChunk } from './types.js'

/**
 * The chunks of a chat stream's body: the SDK's own SSE framing, each event's `data` parsed as JSON
 * and nothing more, until `data: [DONE]`. Unlike the SDK's `chat.stream`, no schema is applied: a
 * chunk the agent does not need (no choices, a `null` usage...) is passed on and ignored by the
 * mapper instead of ending the answer. Data that is not JSON fails the stream.
 */
export function readChatChunks(
  body: ReadableStream<Uint8Array>
): AsyncIterable<SseMessage<MistralChunk>> {
  return new EventStream<SseMessage<MistralChunk>>(body, (message) =>
    message.data === '[DONE]'
      ? { done: true, value: undefined }
      : { done: false, value: { data: JSON.parse(message.data ?? '') as MistralChunk } }
  )
}
