import { randomUUID } from 'node:crypto'
import type { FakeRealtimeUsage } from './types.js'

/** Server events of OpenAI's realtime conversations (responses and items), as the fake sends them. */

function eventId(): string {
  return `event_${randomUUID().replace(/-/g, '').slice(0, 20)}`
}

/** What the fake knows of a response, as the `response` object of its events. */
export interface ResponseShape {
  id: string
  status: 'in_progress' | 'completed' | 'cancelled' | 'failed' | 'incomplete'
  statusDetails?: Record<string, unknown> | null
  output: unknown[]
  metadata: unknown
  inConversation: boolean
  usage?: FakeRealtimeUsage
}

export function responseObject(response: ResponseShape) {
  return {
    object: 'realtime.response',
    id: response.id,
    status: response.status,
    status_details: response.statusDetails ?? null,
    output: response.output,
    conversation_id: response.inConversation ? 'conv_fake' : null,
    output_modalities: ['audio'],
    metadata: response.metadata ?? null,
    usage: response.usage ? usageObject(response.usage) : null,
  }
}

/** A response's `usage`, as the API reports it (cached tokens are part of the input tokens). */
function usageObject({ input, output }: FakeRealtimeUsage) {
  const inputTokens = input.text + input.audio
  const outputTokens = output.text + output.audio
  return {
    total_tokens: inputTokens + outputTokens,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    input_token_details: {
      text_tokens: input.text,
      audio_tokens: input.audio,
      image_tokens: 0,
      cached_tokens: input.cached ?? 0,
    },
    output_token_details: { text_tokens: output.text, audio_tokens: output.audio },
  }
}

export function responseCreated(response: ResponseShape) {
  return { type: 'response.created', event_id: eventId(), response: responseObject(response) }
}

export function responseDone(response: ResponseShape) {
  return { type: 'response.done', event_id: eventId(), response: responseObject(response) }
}

export function outputItemAdded(responseId: string, outputIndex: number, item: unknown) {
  return {
    type: 'response.output_item.added',
    event_id: eventId(),
    response_id: responseId,
    output_index: outputIndex,
    item,
  }
}

export function outputItemDone(responseId: string, outputIndex: number, item: unknown) {
  return {
    type: 'response.output_item.done',
    event_id: eventId(),
    response_id: responseId,
    output_index: outputIndex,
    item,
  }
}

/** The fields every content event of a spoken item carries. */
function contentRef(responseId: string, itemId: string, outputIndex: number) {
  return {
    event_id: eventId(),
    response_id: responseId,
    item_id: itemId,
    output_index: outputIndex,
    content_index: 0,
  }
}

export function contentPartAdded(responseId: string, itemId: string, outputIndex: number) {
  return {
    type: 'response.content_part.added',
    ...contentRef(responseId, itemId, outputIndex),
    part: { type: 'audio', transcript: '' },
  }
}

export function contentPartDone(
  responseId: string,
  itemId: string,
  outputIndex: number,
  transcript: string
) {
  return {
    type: 'response.content_part.done',
    ...contentRef(responseId, itemId, outputIndex),
    part: { type: 'audio', transcript },
  }
}

export function audioDelta(responseId: string, itemId: string, outputIndex: number, audio: Buffer) {
  return {
    type: 'response.output_audio.delta',
    ...contentRef(responseId, itemId, outputIndex),
    delta: audio.toString('base64'),
  }
}

export function audioDone(responseId: string, itemId: string, outputIndex: number) {
  return { type: 'response.output_audio.done', ...contentRef(responseId, itemId, outputIndex) }
}

export function transcriptDelta(
  responseId: string,
  itemId: string,
  outputIndex: number,
  delta: string
) {
  return {
    type: 'response.output_audio_transcript.delta',
    ...contentRef(responseId, itemId, outputIndex),
    delta,
  }
}

export function transcriptDone(
  responseId: string,
  itemId: string,
  outputIndex: number,
  transcript: string
) {
  return {
    type: 'response.output_audio_transcript.done',
    ...contentRef(responseId, itemId, outputIndex),
    transcript,
  }
}

export function argumentsDelta(
  responseId: string,
  itemId: string,
  outputIndex: number,
  callId: string,
  delta: string
) {
  return {
    type: 'response.function_call_arguments.delta',
    event_id: eventId(),
    response_id: responseId,
    item_id: itemId,
    output_index: outputIndex,
    call_id: callId,
    delta,
  }
}

export function argumentsDone(
  responseId: string,
  itemId: string,
  outputIndex: number,
  call: { callId: string; name: string; arguments: string }
) {
  return {
    type: 'response.function_call_arguments.done',
    event_id: eventId(),
    response_id: responseId,
    item_id: itemId,
    output_index: outputIndex,
    call_id: call.callId,
    name: call.name,
    arguments: call.arguments,
  }
}

export function itemAdded(item: unknown, previousItemId: string | null) {
  return {
    type: 'conversation.item.added',
    event_id: eventId(),
    previous_item_id: previousItemId,
    item,
  }
}

export function itemDeleted(itemId: string) {
  return { type: 'conversation.item.deleted', event_id: eventId(), item_id: itemId }
}

export function itemTruncated(itemId: string, audioEndMs: number) {
  return {
    type: 'conversation.item.truncated',
    event_id: eventId(),
    item_id: itemId,
    content_index: 0,
    audio_end_ms: audioEndMs,
  }
}
