/**
 * Speaking rate assumed for audio whose text is not all known yet (an answer cut while the TTS
 * still produces it): about 15 characters per second, an average speaking pace.
 */
const DEFAULT_MS_PER_CHAR = 65

/** What is known of an answer's speech. */
export interface SpokenText {
  /** The text given to the TTS so far. */
  text: string
  /** Audio received from the TTS so far, in ms. */
  audioMs: number
  /** All audio of the text was received (the TTS ended it). */
  complete: boolean
  /**
   * Where each word the TTS aligned ends, when it gives word timings (ms from the start of the
   * answer's audio): only the ends are kept, not the TTS's word objects, which a playing answer
   * would otherwise hold until it is heard.
   */
  wordEndsMs: readonly number[]
}

/** A word of an answer whose place in the audio is known. */
export interface TimedWord {
  /** The word with the text before it since the previous word (spaces, punctuation). */
  text: string
  /** When its end is heard, in ms from the start of the answer's audio. */
  endMs: number
}

/**
 * How many characters of `spoken.text` were heard in the first `playedMs` of its audio: up to the
 * end of the last word heard (never inside one). With word timings, a word is heard once its end
 * was played; without them, characters are spread evenly over the audio.
 */
export function heardChars(spoken: SpokenText, playedMs: number): number {
  const { text } = spoken
  if (playedMs <= 0 || text.length === 0) return 0
  // The TTS may still be aligning the last words: all of them heard if everything was played
  if (spoken.complete && playedMs >= spoken.audioMs) return text.length
  if (spoken.wordEndsMs.length > 0) {
    const heard = spoken.wordEndsMs.filter((endMs) => endMs <= playedMs).length
    const ends = wordEnds(text)
    return ends[Math.min(heard, ends.length) - 1] ?? 0
  }
  const totalMs = spoken.complete
    ? spoken.audioMs
    : Math.max(spoken.audioMs, text.length * DEFAULT_MS_PER_CHAR)
  if (totalMs <= 0) return 0
  const chars = Math.floor((text.length * Math.min(playedMs, totalMs)) / totalMs)
  let end = 0
  for (const wordEnd of wordEnds(text)) {
    if (wordEnd > chars) break
    end = wordEnd
  }
  return end
}

/** The part of `spoken.text` heard in the first `playedMs` of its audio, trimmed. */
export function heardText(spoken: SpokenText, playedMs: number): string {
  return spoken.text.slice(0, heardChars(spoken, playedMs)).trim()
}

/**
 * The words of `spoken.text` from word `from` on whose place in the audio is known: with word
 * timings, those the TTS aligned; without, all of them once the audio is complete (spread evenly).
 */
export function timedWords(spoken: SpokenText, from: number): TimedWord[] {
  const ends = wordEnds(spoken.text)
  const timed: TimedWord[] = []
  const aligned = spoken.wordEndsMs.length
  const known = Math.min(aligned, ends.length)
  const all = spoken.complete ? ends.length : known
  for (let k = from; k < all; k++) {
    const start = k === 0 ? 0 : ends[k - 1]!
    const endMs =
      k < known
        ? spoken.wordEndsMs[k]!
        : aligned > 0
          ? spoken.audioMs
          : (ends[k]! * spoken.audioMs) / spoken.text.length
    timed.push({ text: spoken.text.slice(start, ends[k]), endMs })
  }
  return timed
}

/** Where each word (a run of non-space characters) of `text` ends. */
function wordEnds(text: string): number[] {
  const ends: number[] = []
  const pattern = /\S+/g
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    ends.push(match.index + match[0].length)
  }
  return ends
}
