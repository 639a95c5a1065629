import type { TestClient } from './harness.js'

/**
 * `ms` of speech-like PCM16 16 kHz: a voiced sound (120 Hz and its harmonics) under a syllable
 * envelope (four syllables a second), never quite silent within a word, as a microphone hears it.
 */
export function speech(ms: number): Buffer {
  const audio = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    const t = i / 16_000
    const envelope = 0.3 + 0.7 * Math.abs(Math.sin(2 * Math.PI * 2 * t))
    let voiced = 0
    for (let harmonic = 1; harmonic <= 5; harmonic++) {
      voiced += Math.sin(2 * Math.PI * 120 * harmonic * t) / harmonic
    }
    audio.writeInt16LE(Math.round(4000 * envelope * voiced), i * 2)
  }
  return audio
}

export const silence = (ms: number) => Buffer.alloc(ms * 32)

/** Streams audio as a device does: binary frames of 100 ms, no StartSpeaking or StopSpeaking. */
export function stream(client: TestClient, ...parts: Buffer[]) {
  const audio = Buffer.concat(parts)
  for (let offset = 0; offset < audio.length; offset += 3200) {
    client.socket.send(audio.subarray(offset, offset + 3200), { binary: true })
  }
}
