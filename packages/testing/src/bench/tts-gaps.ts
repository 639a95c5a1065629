import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { TTS } from '@openmic/core'
import { audioMs } from '@openmic/core/provider'
import { quantile } from './agent-vs-raw.js'

/**
 * A client playing Micdrop audio in real time from its first chunk: a chunk that arrives after the
 * audio before it has finished playing leaves the listener in silence.
 */
export class RealtimePlayer {
  /** When the first chunk arrived (`performance.now()`), 0 before it. */
  firstAt = 0
  /** When the audio received so far ends playing (`performance.now()` time). */
  playhead = 0

  /** Plays a chunk of `bytes` arriving at `now`; returns the silence heard before it, in ms. */
  push(bytes: number, now = performance.now()): number {
    if (this.firstAt === 0) this.firstAt = this.playhead = now
    const silence = Math.max(0, now - this.playhead)
    this.playhead = Math.max(this.playhead, now) + audioMs(bytes)
    return silence
  }
}

/** What a real-time player heard of one answer: see {@link listenToAnswer}. */
export interface HeardAnswer {
  /** The longest silence between two audio chunks, in ms. */
  longestSilenceMs: number
  /** When the first audio arrived (`performance.now()`). */
  firstAudioAt: number
}

/**
 * Has `tts` speak `text` and listens like a {@link RealtimePlayer} until `AudioEnd`; rejects on
 * `Failed`. The listeners are removed at the end, so one TTS serves every round.
 */
export function listenToAnswer(tts: TTS, text: Readable): Promise<HeardAnswer> {
  return new Promise((resolve, reject) => {
    const player = new RealtimePlayer()
    let longestSilenceMs = 0
    const onAudio = (chunk: Buffer) => {
      longestSilenceMs = Math.max(longestSilenceMs, player.push(chunk.length))
    }
    const cleanup = () => {
      tts.off('Audio', onAudio)
      tts.off('AudioEnd', onEnd)
      tts.off('Failed', onFailed)
    }
    const onEnd = () => {
      cleanup()
      resolve({ longestSilenceMs, firstAudioAt: player.firstAt })
    }
    const onFailed = (error: unknown) => {
      cleanup()
      reject(error)
    }
    tts.on('Audio', onAudio)
    tts.once('AudioEnd', onEnd)
    tts.once('Failed', onFailed)
    tts.speak(text)
  })
}

/**
 * Text as a model streams it: `pieces` one by one, `gapMs` apart. `onPiece` is told each piece's
 * index just before it is written (to time from a given point of the text).
 */
export function streamPieces(
  pieces: string[],
  gapMs: number,
  onPiece?: (index: number) => void
): Readable {
  return Readable.from(
    (async function* () {
      for (const [index, piece] of pieces.entries()) {
        onPiece?.(index)
        yield piece
        await sleep(gapMs)
      }
    })()
  )
}

/** One round of a TTS gaps benchmark: see {@link benchTtsGaps}. */
export interface TtsGapsRound {
  /** The longest silence a real-time player heard in the answer, in ms. */
  silenceMs: number
  /** The time to the answer's first audio, minus the scripted time to first audio, in ms. */
  firstAudioMs: number
  /** The same for the bare client, in ms. */
  rawFirstAudioMs: number
}

/** Options of {@link benchTtsGaps}. */
export interface TtsGapsBench {
  /** The TTS measured, named in the table's header (`CartesiaTTS`). */
  name: string
  /** What it is compared with (`` bare `ws` client ``, `raw SDK call`). */
  rawName: string
  rounds: number
  /** The fake's scripted time to first audio, in ms. */
  ttfbMs: number
  /** What one answer is (`three sentences, streamed word by word 10 ms apart`). */
  answer: string
  /** The TTS measured, one instance for every round. */
  tts: TTS
  /**
   * The text of one answer, as it streams. The time to first audio counts from `speak()`, or from
   * the last call of `mark` (e.g. when the first sentence is complete).
   */
  text(mark: () => void): Readable
  /** The bare client's time to its first audio, minus the scripted TTFB, in ms. */
  raw(round: number): Promise<number>
}

/**
 * Runs a TTS gaps benchmark: one warm-up answer and bare request, then `rounds` of both, one after
 * the other, each answer heard by a {@link RealtimePlayer}. Returns the table of
 * {@link formatTtsGaps}.
 */
export async function benchTtsGaps(bench: TtsGapsBench): Promise<string> {
  const speak = async () => {
    let from = performance.now()
    const text = bench.text(() => (from = performance.now()))
    const heard = await listenToAnswer(bench.tts, text)
    return {
      silenceMs: heard.longestSilenceMs,
      firstAudioMs: heard.firstAudioAt - from - bench.ttfbMs,
    }
  }
  await speak()
  await bench.raw(-1)
  const rounds: TtsGapsRound[] = []
  for (let round = 0; round < bench.rounds; round++) {
    const { silenceMs, firstAudioMs } = await speak()
    rounds.push({ silenceMs, firstAudioMs, rawFirstAudioMs: await bench.raw(round) })
  }
  return formatTtsGaps(bench, rounds)
}

/**
 * The table of a TTS gaps benchmark, in Markdown: the longest silence heard in an answer (p50,
 * p99, max) and the time to first audio minus the scripted TTFB (p50, p99), beside the bare
 * client's.
 */
export function formatTtsGaps(
  bench: Pick<TtsGapsBench, 'name' | 'rawName' | 'ttfbMs' | 'answer'>,
  rounds: TtsGapsRound[]
): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`
  const silences = rounds.map((round) => round.silenceMs)
  const firsts = rounds.map((round) => round.firstAudioMs)
  const raws = rounds.map((round) => round.rawFirstAudioMs)
  const first = `first audio − scripted ${bench.ttfbMs} ms`
  return [
    `${rounds.length} answers of ${bench.answer}, time to first audio ${bench.ttfbMs} ms scripted:`,
    `| point | ${bench.name} | ${bench.rawName} |`,
    '| --- | --- | --- |',
    `| longest silence in an answer, p50 | ${ms(quantile(silences, 0.5))} | |`,
    `| longest silence in an answer, p99 | ${ms(quantile(silences, 0.99))} | |`,
    `| longest silence in an answer, max | ${ms(Math.max(...silences))} | |`,
    `| ${first}, p50 | ${ms(quantile(firsts, 0.5))} | ${ms(quantile(raws, 0.5))} |`,
    `| ${first}, p99 | ${ms(quantile(firsts, 0.99))} | ${ms(quantile(raws, 0.99))} |`,
  ].join('\n')
}
