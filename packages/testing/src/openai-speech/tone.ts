/** Sample rate of OpenAI's `pcm` speech format. */
export const SPEECH_SAMPLE_RATE = 24_000

/**
 * A sine tone as PCM16 mono little-endian: audible, not silence, and easy to check for length
 * and level. Default 440 Hz at about -10 dBFS, 24 kHz.
 */
export function pcmTone(
  durationMs: number,
  options: { frequency?: number; amplitude?: number; sampleRate?: number } = {}
): Buffer {
  const { frequency = 440, amplitude = 0.3, sampleRate = SPEECH_SAMPLE_RATE } = options
  const samples = Math.round((durationMs * sampleRate) / 1000)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    const value = Math.sin((2 * Math.PI * frequency * i) / sampleRate) * amplitude
    audio.writeInt16LE(Math.round(value * 32767), i * 2)
  }
  return audio
}
