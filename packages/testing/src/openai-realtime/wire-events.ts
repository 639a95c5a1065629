import { randomUUID } from 'node:crypto'

/** Server events of OpenAI's realtime transcription, as the fake sends them. */

function eventId(): string {
  return `event_${randomUUID().replace(/-/g, '').slice(0, 20)}`
}

export function errorEvent(
  message: string,
  options: { code?: string | null; type?: string; clientEventId?: string | null } = {}
): Record<string, unknown> {
  return {
    type: 'error',
    event_id: eventId(),
    error: {
      type: options.type ?? 'invalid_request_error',
      code: options.code ?? null,
      message,
      param: null,
      event_id: options.clientEventId ?? null,
    },
  }
}

export function sessionEvent(
  type: 'session.created' | 'session.updated',
  session: Record<string, unknown>
): Record<string, unknown> {
  return { type, event_id: eventId(), session }
}

export function committedEvent(itemId: string, previousItemId: string | null) {
  return {
    type: 'input_audio_buffer.committed',
    event_id: eventId(),
    previous_item_id: previousItemId,
    item_id: itemId,
  }
}

export function clearedEvent() {
  return { type: 'input_audio_buffer.cleared', event_id: eventId() }
}

export function deltaEvent(itemId: string, delta: string) {
  return {
    type: 'conversation.item.input_audio_transcription.delta',
    event_id: eventId(),
    item_id: itemId,
    content_index: 0,
    delta,
  }
}

export function completedEvent(itemId: string, transcript: string, seconds: number) {
  return {
    type: 'conversation.item.input_audio_transcription.completed',
    event_id: eventId(),
    item_id: itemId,
    content_index: 0,
    transcript,
    usage: { type: 'duration', seconds },
  }
}

export function failedEvent(itemId: string, message: string, code: string | undefined) {
  return {
    type: 'conversation.item.input_audio_transcription.failed',
    event_id: eventId(),
    item_id: itemId,
    content_index: 0,
    error: { type: 'transcription_error', code, message },
  }
}

/** The session a transcription connection starts with, before any `session.update`. */
export function defaultTranscriptionSession(): Record<string, unknown> {
  return {
    type: 'transcription',
    id: sessionId(),
    object: 'realtime.transcription_session',
    audio: { input: defaultAudioInput() },
    include: null,
  }
}

/** The session a conversation connection (`/v1/realtime?model=...`) starts with. */
export function defaultRealtimeSession(model: string | null): Record<string, unknown> {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id: sessionId(),
    model,
    output_modalities: ['audio'],
    instructions: '',
    audio: {
      input: defaultAudioInput({ create_response: true, interrupt_response: true }),
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    },
    tools: [],
    tool_choice: 'auto',
  }
}

/** A session's input before any `session.update`: PCM 24 kHz, server VAD on, no transcription. */
function defaultAudioInput(vad: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: { type: 'audio/pcm', rate: 24000 },
    transcription: null,
    noise_reduction: null,
    turn_detection: {
      type: 'server_vad',
      threshold: 0.5,
      prefix_padding_ms: 300,
      silence_duration_ms: 200,
      ...vad,
    },
  }
}

function sessionId(): string {
  return `sess_${randomUUID().replace(/-/g, '').slice(0, 20)}`
}
