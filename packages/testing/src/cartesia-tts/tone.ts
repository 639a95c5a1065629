/** A 440 Hz tone as PCM16 mono at 16 kHz (about -13 dBFS): audible and easy to measure. */
export function tone16k(durationMs: number): Buffer {
  const samples = Math.round((durationMs * 16_000) / 1000)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++)
    audio.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / 16_000) * 0.3 * 32767), i * 2)
  return audio
}
