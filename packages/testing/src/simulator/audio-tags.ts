import { MICDROP_AUDIO_FORMAT } from '@openmic/core/protocol'

/** Bytes of wire audio (PCM16 16 kHz mono) per millisecond: 32. */
export const BYTES_PER_MS =
  (MICDROP_AUDIO_FORMAT.sampleRate * MICDROP_AUDIO_FORMAT.bytesPerSample) / 1000

/** The client sends the user's audio in chunks of this length, one every chunk length. */
export const USER_CHUNK_MS = 100

/**
 * Simulated audio carries its origin in every sample: the number of the `speak()` call for the
 * assistant's audio, the number of the utterance for the user's. However frames interleave or
 * are cut, each one says whose it is.
 */
export function tagged(bytes: number, tag: number): Buffer {
  const sample = Buffer.alloc(2)
  sample.writeInt16LE(tag)
  return Buffer.alloc(bytes, sample)
}

/** The tag of a simulated audio frame (see {@link tagged}). */
export function tagOf(audio: Buffer): number {
  return audio.length >= 2 ? audio.readInt16LE(0) : 0
}

/** One 100 ms chunk of the user's utterance `utterance` (numbered from 1). */
export function userChunk(utterance: number): Buffer {
  return tagged(USER_CHUNK_MS * BYTES_PER_MS, utterance)
}
