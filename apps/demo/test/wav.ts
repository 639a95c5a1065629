const RATE = 16000

/** `seconds` of silence as PCM16 16 kHz mono. */
export function silence(seconds: number): Buffer {
  return Buffer.alloc(Math.round(seconds * RATE) * 2)
}

/** Wraps PCM16 16 kHz mono in a WAV header (Chromium's fake microphone reads WAV files). */
export function pcmToWav(pcm: Buffer, rate = RATE): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + pcm.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(pcm.length, 40)
  return Buffer.concat([header, pcm])
}
