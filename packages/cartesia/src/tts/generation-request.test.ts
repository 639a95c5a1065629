import { describe, expect, it } from 'vitest'
import { generationRequest } from './generation-request.js'

describe('generationRequest', () => {
  it('sends the defaults: sonic-3, PCM16 16 kHz, word timestamps', () => {
    expect(generationRequest({ voiceId: 'v' }, 'c1', 'Hi ', true)).toEqual({
      model_id: 'sonic-3',
      voice: { mode: 'id', id: 'v' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      add_timestamps: true,
      transcript: 'Hi ',
      context_id: 'c1',
      continue: true,
    })
  })

  it("puts Micdrop's speed names top-level, and a number with the other sonic-3 settings", () => {
    const named = generationRequest({ voiceId: 'v', speed: 'fast' }, 'c', '', false)
    expect(named.speed).toBe('fast')
    expect(named.generation_config).toBeUndefined()
    const numbered = generationRequest(
      { voiceId: 'v', speed: 0.9, generationConfig: { volume: 1.5 }, wordTimestamps: false },
      'c',
      '',
      false
    )
    expect(numbered.speed).toBeUndefined()
    expect(numbered.generation_config).toEqual({ volume: 1.5, speed: 0.9 })
    expect(numbered).not.toHaveProperty('add_timestamps')
  })
})
