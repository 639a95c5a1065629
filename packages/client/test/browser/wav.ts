/** Timeline of the fake microphone (Chromium loops the file). */
export const VOICE = {
  /** Silence before the voice, in seconds. */
  start: 2,
  /** Length of the voice, in seconds. */
  length: 1.2,
  /** Length of the whole file, in seconds. */
  loop: 5,
  /** Pitch of the voice (a sine, amplitude-modulated like syllables). */
  hz: 220,
}

/** A mono 16-bit WAV at `rate` Hz: silence, then a 220 Hz "voice", then silence (see {@link VOICE}). */
export function makeVoiceWav(rate = 48000): Buffer {
  const samples = Math.round(VOICE.loop * rate)
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    const t = i / rate
    let s = 0
    if (t >= VOICE.start && t < VOICE.start + VOICE.length) {
      const syllables = 0.8 + 0.2 * Math.sin(2 * Math.PI * 3 * t)
      s = 0.3 * syllables * Math.sin(2 * Math.PI * VOICE.hz * t)
    }
    data.writeInt16LE(Math.round(s * 32767), i * 2)
  }
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/** A tone as PCM16 16 kHz (what the scripted TTS "says"). */
export function tonePcm16(seconds: number, hz = 440, amplitude = 0.3): Buffer {
  const samples = Math.round(seconds * 16000)
  const out = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    out.writeInt16LE(
      Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / 16000)),
      i * 2
    )
  }
  return out
}

/** Frequency of a tone in PCM16 at `rate`, from its zero crossings. */
export function toneFrequency(pcm: Int16Array, rate = 16000): number {
  let crossings = 0
  for (let i = 1; i < pcm.length; i++) {
    if ((pcm[i - 1]! < 0 && pcm[i]! >= 0) || (pcm[i - 1]! >= 0 && pcm[i]! < 0)) crossings++
  }
  return crossings / 2 / (pcm.length / rate)
}
