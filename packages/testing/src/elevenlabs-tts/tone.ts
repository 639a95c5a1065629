/** `ms` of a 220 Hz tone, PCM16 mono at `rate`, starting at sample `from` (so pieces join up). */
export function toneAt(rate: number, ms: number, from: number): Buffer {
  const samples = Math.round((rate * ms) / 1000)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * (from + i)) / rate)), i * 2)
  }
  return audio
}
