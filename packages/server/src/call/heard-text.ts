import type { TTSWord } from '@openmic/core'

/**
 * Speaking rate assumed for audio whose text is not all known yet (an answer cut while the TTS
 * still produces it): about 15 characters per second, an average speaking pace.
 */
const DEFAULT_MS_PER_CHAR = 65

/** What is known of an answer's speech when it is cut. */
export interface SpokenText {
  /** The text given to the TTS so far. */
  text: string
  /** Audio received from the TTS so far, in ms. */
  audioMs: number
  /** All audio of the text was received (the TTS ended it). */
  complete: boolean
  /** The TTS's word timings, when it gives them (ms from the start of the answer's audio). */
  words: readonly TTSWord[]
}

/**
 * The part of `spoken.text` heard in the first `playedMs` of its audio, ending at the end of a word
 * (never inside one). With word timings, a word is heard once its end was played; without them,
 * characters are spread evenly over the audio.
 */
export function heardText(spoken: SpokenText, playedMs: number): string {
  const { text } = spoken
  if (playedMs <= 0 || text.length === 0) return ''
  if (spoken.words.length > 0) {
    const heardWords = spoken.words.filter((word) => word.endMs <= playedMs).length
    // The TTS may still be aligning the last words: all of them heard if everything was played.
    if (spoken.complete && playedMs >= spoken.audioMs) return text.trim()
    return firstWords(text, heardWords)
  }
  const totalMs = spoken.complete
    ? spoken.audioMs
    : Math.max(spoken.audioMs, text.length * DEFAULT_MS_PER_CHAR)
  if (totalMs <= 0) return ''
  const chars = Math.floor((text.length * Math.min(playedMs, totalMs)) / totalMs)
  return wordsWithin(text, chars)
}

/** The first `count` words of `text` (words: runs of non-space characters), trimmed. */
function firstWords(text: string, count: number): string {
  if (count <= 0) return ''
  const pattern = /\S+/g
  let end = 0
  for (let i = 0; i < count; i++) {
    const match = pattern.exec(text)
    if (!match) break
    end = match.index + match[0].length
  }
  return text.slice(0, end).trim()
}

/** The words of `text` that end within its first `chars` characters, trimmed. */
function wordsWithin(text: string, chars: number): string {
  if (chars >= text.length) return text.trim()
  const pattern = /\S+/g
  let end = 0
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const wordEnd = match.index + match[0].length
    if (wordEnd > chars) break
    end = wordEnd
  }
  return text.slice(0, end).trim()
}
