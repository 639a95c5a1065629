import type { TTSWord } from '@openmic/core'

/** A word whose characters are still arriving (it may go on in the next audio message). */
interface OpenWord {
  word: string
  startMs: number
  endMs: number
}

/**
 * Turns the character alignment of a context's audio messages into word timings. Each message's
 * times count from the start of its own audio (the API's documentation); `offsetMs` (the audio of
 * the context before it) makes them count from the start of the `speak()`'s audio. A word split
 * across two messages is given once, when a blank or the end closes it.
 */
export class WordAligner {
  private open: OpenWord | undefined

  /** The words this message's characters complete. */
  push(alignment: unknown, offsetMs: number): TTSWord[] {
    const { chars, starts, durations } = readAlignment(alignment)
    const words: TTSWord[] = []
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i]!
      const startMs = offsetMs + (starts[i] ?? 0)
      const endMs = startMs + Math.max(0, durations[i] ?? 0)
      if (/^\s*$/.test(char)) {
        if (this.open) words.push(this.open)
        this.open = undefined
      } else if (this.open) {
        this.open.word += char
        this.open.endMs = Math.max(this.open.endMs, endMs)
      } else {
        this.open = { word: char, startMs, endMs }
      }
    }
    return words
  }

  /** The last word, once no more characters will come. */
  end(): TTSWord[] {
    const last = this.open
    this.open = undefined
    return last ? [last] : []
  }
}

function readAlignment(alignment: unknown): {
  chars: string[]
  starts: number[]
  durations: number[]
} {
  const value = (alignment ?? {}) as Record<string, unknown>
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []
  const numbers = (v: unknown) =>
    Array.isArray(v) ? v.map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : 0)) : []
  return {
    chars: strings(value.chars),
    starts: numbers(value.charStartTimesMs ?? value.char_start_times_ms),
    durations: numbers(value.charDurationsMs ?? value.char_durations_ms),
  }
}
