import type { SessionUpdateEvent } from 'openai/resources/realtime/realtime'

/** Sample rate of the audio sent: the only PCM rate the Realtime API accepts. */
export const REALTIME_SAMPLE_RATE = 24_000

/**
 * The `session.update` that makes a connection a transcription session: PCM16 at 24 kHz, turns
 * ended by the client's commit (no server VAD: openmic's client already detects the end of
 * speech), near-field noise reduction.
 */
export function transcriptionSessionUpdate(
  eventId: string,
  settings: { model: string; language?: string; prompt?: string }
): SessionUpdateEvent {
  const { model, language, prompt } = settings
  return {
    type: 'session.update',
    event_id: eventId,
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: REALTIME_SAMPLE_RATE },
          transcription: {
            model,
            ...(language ? { language } : {}),
            ...(prompt ? { prompt } : {}),
          },
          turn_detection: null,
          noise_reduction: { type: 'near_field' },
        },
      },
    },
  }
}
