import type { RealtimeSessionConfig } from '@openmic/core'
import type { SessionUpdateEvent } from 'openai/resources/realtime/realtime'
import { REALTIME_SAMPLE_RATE } from '../stt/session-update.js'
import type { OpenaiRealtimeOptions } from './options.js'

/** The settings of {@link OpenaiRealtime} that shape its session. */
export type RealtimeSessionSettings = Required<
  Pick<OpenaiRealtimeOptions, 'model' | 'voice' | 'transcriptionModel' | 'language'>
> &
  Pick<OpenaiRealtimeOptions, 'speed' | 'noiseReduction' | 'session'>

/**
 * The `session.update` of a speech-to-speech session: openmic's system prompt and tools, PCM16
 * at 24 kHz both ways, the user's audio transcribed, and no turn detection: the call's turn rules
 * commit the user's audio and ask for each response.
 */
export function realtimeSessionUpdate(
  eventId: string,
  config: RealtimeSessionConfig | undefined,
  settings: RealtimeSessionSettings
): SessionUpdateEvent {
  const format = { type: 'audio/pcm', rate: REALTIME_SAMPLE_RATE } as const
  const { language, noiseReduction } = settings
  return {
    type: 'session.update',
    event_id: eventId,
    session: {
      ...settings.session,
      type: 'realtime',
      model: settings.model,
      output_modalities: ['audio'],
      instructions: config?.instructions ?? '',
      tools: (config?.tools ?? []).map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
      tool_choice: 'auto',
      audio: {
        input: {
          format,
          transcription: {
            model: settings.transcriptionModel,
            ...(language ? { language } : {}),
          },
          turn_detection: null,
          ...(noiseReduction ? { noise_reduction: { type: noiseReduction } } : {}),
        },
        output: {
          format,
          voice: settings.voice,
          ...(settings.speed !== undefined ? { speed: settings.speed } : {}),
        },
      },
    },
  }
}
