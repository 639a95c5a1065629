import type { SseDialect } from '../sse-server/types.js'
import { mistralErrorBody } from '../mistral/mistral-dialect.js'

/**
 * Mistral's streamed speech (`POST /v1/audio/speech` with `stream: true`): SSE events named by
 * their type, `speech.audio.delta` {`audio_data`: base64} then `speech.audio.done` {`usage`}, and
 * no `[DONE]` terminator. The SDK requires the `event:` line.
 */
export const mistralSpeechDialect: SseDialect = {
  eventName: (event) =>
    typeof event === 'object' && event !== null && 'type' in event
      ? String((event as { type: unknown }).type)
      : undefined,
  createEncoder: () => ({
    start: () => [],
    text: () => [],
    reasoning: () => [],
    toolCall: () => [],
    finish: () => [
      {
        type: 'speech.audio.done',
        usage: { prompt_tokens: 0, total_tokens: 0, completion_tokens: 0 },
      },
    ],
  }),
  errorBody: mistralErrorBody,
  rejectRequest: (request) => {
    const input = (request.body as { input?: unknown } | undefined)?.input
    if (typeof input === 'string' && input.length > 0) return undefined
    return {
      status: 422,
      body: { object: 'error', message: 'input: Field required', type: 'invalid_request_error' },
    }
  },
}

/** A `speech.audio.delta` event carrying these bytes. */
export function speechAudioDelta(audio: Uint8Array): { type: string; audio_data: string } {
  return { type: 'speech.audio.delta', audio_data: Buffer.from(audio).toString('base64') }
}
