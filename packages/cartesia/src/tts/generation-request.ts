import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import type { GenerationRequest } from '@cartesia/cartesia-js/resources/tts'
import { DEFAULT_CARTESIA_TTS_MODEL, type CartesiaTTSOptions } from './options.js'

/**
 * The generation request of one piece of a context's text: model, voice, PCM16 16 kHz output and
 * the options, repeated on every message of the context as the API wants.
 */
export function generationRequest(
  options: CartesiaTTSOptions,
  contextId: string,
  transcript: string,
  more: boolean
): GenerationRequest {
  const { speed, generationConfig } = options
  const config = {
    ...generationConfig,
    ...(typeof speed === 'number' ? { speed } : {}),
  }
  return {
    model_id: options.modelId ?? DEFAULT_CARTESIA_TTS_MODEL,
    voice: { mode: 'id', id: options.voiceId },
    output_format: {
      container: 'raw',
      encoding: 'pcm_s16le',
      sample_rate: MICDROP_AUDIO_FORMAT.sampleRate,
    },
    ...(options.language ? { language: options.language as GenerationRequest['language'] } : {}),
    ...(typeof speed === 'string' ? { speed } : {}),
    ...(Object.keys(config).length > 0 ? { generation_config: config } : {}),
    ...(options.maxBufferDelayMs !== undefined
      ? { max_buffer_delay_ms: options.maxBufferDelayMs }
      : {}),
    ...(options.wordTimestamps === false ? {} : { add_timestamps: true }),
    transcript,
    context_id: contextId,
    continue: more,
  }
}
