import { MICDROP_AUDIO_FORMAT } from '@openmic/core/protocol'

/** Sample rate of the audio on the wire, both directions (PCM16 mono). */
export const WIRE_SAMPLE_RATE = MICDROP_AUDIO_FORMAT.sampleRate

/**
 * The level of digital silence, in dBFS: every level the client gives (`mic.volume`,
 * `speaker.getVolume()`) lies in `[SILENCE_DB, 0]`.
 */
export const SILENCE_DB = -100

/** Converts float samples in `[-1, 1]` to PCM16 (clamped). */
export function floatToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length)
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!))
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff
  }
  return out
}

/** Converts PCM16 samples to floats in `[-1, 1)`. */
export function pcm16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length)
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 0x8000
  return out
}

/** Concatenates PCM16 arrays into one. */
export function concatPcm16(parts: readonly Int16Array[]): Int16Array {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Int16Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * Reads a binary frame as PCM16. A trailing odd byte (never sent by a conforming server) is
 * dropped rather than throwing.
 */
export function arrayBufferToPcm16(data: ArrayBuffer): Int16Array {
  return new Int16Array(data, 0, data.byteLength >> 1)
}

/** The exact bytes of `samples`, as a standalone ArrayBuffer to send on a WebSocket. */
export function pcm16ToArrayBuffer(samples: Int16Array): ArrayBuffer {
  return samples.buffer.slice(
    samples.byteOffset,
    samples.byteOffset + samples.byteLength
  ) as ArrayBuffer
}

/** Converts a root-mean-square amplitude (full scale = 1) to dBFS, floored at {@link SILENCE_DB}. */
export function rmsToDb(rms: number): number {
  if (!(rms > 0)) return SILENCE_DB
  return Math.max(SILENCE_DB, Math.min(0, 20 * Math.log10(rms)))
}

/** Number of samples in `ms` milliseconds of wire audio. */
export function msToSamples(ms: number, sampleRate = WIRE_SAMPLE_RATE): number {
  return Math.round((ms / 1000) * sampleRate)
}
