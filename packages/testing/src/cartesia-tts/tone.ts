import { audioBytes, MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'

const { sampleRate } = MICDROP_AUDIO_FORMAT

/** A 440 Hz tone as PCM16 mono at 16 kHz (about -13 dBFS): audible and easy to measure. */
export function tone16k(durationMs: number): Buffer {
  const audio = Buffer.alloc(audioBytes(durationMs))
  for (let i = 0; i < audio.length / 2; i++)
    audio.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 0.3 * 32767),
      i * 2
    )
  return audio
}
