import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'

/** Wraps PCM16 mono samples in a WAV header (what Chromium's fake microphone reads). */
export function encodeWav(
  pcm: Buffer,
  sampleRate: number = MICDROP_AUDIO_FORMAT.sampleRate
): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + pcm.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(pcm.length, 40)
  return Buffer.concat([header, pcm])
}

/** `seconds` of silence as PCM16 mono. */
export function silencePcm(seconds: number, sampleRate = MICDROP_AUDIO_FORMAT.sampleRate): Buffer {
  return Buffer.alloc(Math.round(seconds * sampleRate) * 2)
}
