import type { FliteVoice } from '../native/flite.js'

/** Options of {@link LocalTTS}. */
export interface LocalTTSOptions {
  /** flite voice; default `slt` (US English, female, 16 kHz). */
  voice?: FliteVoice
  /** A sentence longer than this (characters) is cut at a comma or a space. Default 200. */
  maxSentenceLength?: number
  /** Largest `Audio` chunk, in milliseconds of speech. Default 250. */
  chunkMs?: number
}
