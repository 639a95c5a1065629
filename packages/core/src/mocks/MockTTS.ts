import type { Readable } from 'node:stream'
import { MICDROP_AUDIO_FORMAT, audioBytes } from '../protocol/commands.js'
import { followText } from '../speech/follow-stream.js'
import { TTS } from '../tts/TTS.js'

export interface MockTTSOptions {
  /** Audio length per character of text, in ms (default 10: "Hello" is 50 ms of tone). */
  msPerChar?: number
  /** Tone frequency in Hz (default 440). */
  frequency?: number
  /** Maximum size of one `Audio` chunk, in ms of audio (default 100). */
  chunkMs?: number
  /** Delay before the first audio chunk of each `speak()`, in ms (default 0). */
  firstAudioDelayMs?: number
  /** Delay between audio chunks, in ms (default 0: as fast as the text comes). */
  chunkDelayMs?: number
  /** Emit `Failed` with this error when the first text arrives, instead of audio. */
  error?: unknown
  /** Emit `Failed` (with `error`, or a generic error) after this many audio chunks. */
  failAfterChunks?: number
  /** Emit `Words` timings for each word, as its text arrives (default true). */
  words?: boolean
}

const SAMPLE_RATE = MICDROP_AUDIO_FORMAT.sampleRate
const AMPLITUDE = 0.3 * 32767
const tables = new Map<number, Buffer>()

/**
 * One second of the tone as PCM16: a whole number of periods for an integer frequency, so it
 * loops without a click. Computed once per frequency; speaking only copies from it.
 */
function toneTable(frequency: number): Buffer {
  let table = tables.get(frequency)
  if (!table) {
    table = Buffer.alloc(SAMPLE_RATE * 2)
    const step = (2 * Math.PI * frequency) / SAMPLE_RATE
    for (let i = 0; i < SAMPLE_RATE; i++)
      table.writeInt16LE(Math.round(AMPLITUDE * Math.sin(i * step)), i * 2)
    tables.set(frequency, table)
  }
  return table
}

/** The state of one `speak()` call. */
interface SpeakJob {
  readonly text: Readable
  readonly queue: Buffer[]
  detach: () => void
  textEnded: boolean
  /** All text of this `speak()` so far, and how much of it was announced in `Words`. */
  received: string
  wordsAnnounced: number
  /** How much of `received` was spoken: a word that may still go on in the next text waits. */
  spokenChars: number
  chunksSent: number
  timer?: NodeJS.Timeout
  waited: boolean
  finished: boolean
}

/**
 * A text-to-speech for tests and demos: speaks a sine tone whose length follows the text (real
 * PCM16 16 kHz mono, never silence), streamed as the text comes, each word once it is whole (as a
 * real TTS, which does not say half a word): its audio and its `Words` timing come together.
 * Delays and failures are scriptable.
 *
 * @example
 * const tts = new MockTTS({ msPerChar: 5, firstAudioDelayMs: 20 })
 */
export class MockTTS extends TTS {
  /** Number of `speak()` calls so far. */
  public calls = 0
  /** All text received, over all `speak()` calls (for assertions). */
  public spokenText = ''
  private job?: SpeakJob
  /** Position in the one-second tone table, in samples. */
  private phase = 0

  constructor(private readonly options: MockTTSOptions = {}) {
    super()
  }

  speak(text: Readable): void {
    this.stop()
    this.calls++
    const job: SpeakJob = {
      text,
      queue: [],
      textEnded: false,
      received: '',
      wordsAnnounced: 0,
      spokenChars: 0,
      chunksSent: 0,
      waited: false,
      finished: false,
      detach: () => {},
    }
    this.job = job
    job.detach = followText(text, {
      data: (chunk) => this.onText(job, chunk),
      end: () => {
        job.textEnded = true
        this.speakUpTo(job, job.received.length)
        this.announceWords(job, true)
        this.pump(job)
      },
      error: (error) => this.fail(job, error),
    })
  }

  cancel(): void {
    if (this.job) this.log('Cancel')
    this.stop()
  }

  private stop() {
    const job = this.job
    if (!job) return
    this.job = undefined
    job.finished = true
    job.detach()
    clearTimeout(job.timer)
    job.queue.length = 0
  }

  private onText(job: SpeakJob, text: string) {
    if (job.finished) return
    this.spokenText += text
    if (this.options.error !== undefined) return this.fail(job, this.options.error)
    job.received += text
    // As a real TTS, a word is spoken once it is whole: its audio and its timing come together
    const lastSpace = job.received.search(/\s\S*$/)
    this.speakUpTo(job, lastSpace === -1 ? job.spokenChars : lastSpace + 1)
    this.announceWords(job, false)
    this.pump(job)
  }

  /** Queues the tone of the text up to `end` not spoken yet. */
  private speakUpTo(job: SpeakJob, end: number) {
    if (end <= job.spokenChars) return
    job.queue.push(...this.tone((end - job.spokenChars) * (this.options.msPerChar ?? 10)))
    job.spokenChars = end
  }

  /**
   * Emits `Words` for the words of the text whose end is known (all of them once the text ended).
   * Every character is `msPerChar` of tone, so a word's timing follows from its position.
   */
  private announceWords(job: SpeakJob, all: boolean) {
    if (job.finished || this.options.words === false) return
    const msPerChar = this.options.msPerChar ?? 10
    const words = []
    const pattern = /\S+/g
    pattern.lastIndex = job.wordsAnnounced
    for (let match = pattern.exec(job.received); match; match = pattern.exec(job.received)) {
      const end = match.index + match[0].length
      if (end === job.received.length && !all) break // the word may go on in the next text
      words.push({ word: match[0], startMs: match.index * msPerChar, endMs: end * msPerChar })
      job.wordsAnnounced = end
    }
    if (words.length > 0) this.emit('Words', words)
  }

  /** Emits queued chunks, waiting the configured delays; `AudioEnd` once the text ended. */
  private pump(job: SpeakJob) {
    while (!job.finished && !job.timer && job.queue.length > 0) {
      const delay =
        job.chunksSent === 0
          ? (this.options.firstAudioDelayMs ?? 0)
          : (this.options.chunkDelayMs ?? 0)
      if (delay > 0 && !job.waited) {
        job.timer = setTimeout(() => {
          job.timer = undefined
          job.waited = true
          this.pump(job)
        }, delay)
        return
      }
      job.waited = false
      const chunk = job.queue.shift()!
      job.chunksSent++
      this.emit('Audio', chunk)
      const { failAfterChunks } = this.options
      if (failAfterChunks !== undefined && job.chunksSent >= failAfterChunks) {
        return this.fail(job, this.options.error ?? new Error('MockTTS failure'))
      }
    }
    if (!job.finished && job.textEnded && job.queue.length === 0 && !job.timer) {
      this.stop()
      this.emit('AudioEnd')
    }
  }

  private fail(job: SpeakJob, error: unknown) {
    if (job.finished) return
    if (this.job === job) this.stop()
    this.log('Failed:', error)
    this.emit('Failed', error)
  }

  /** A sine tone of `ms` milliseconds, cut into chunks of at most `chunkMs`. */
  private tone(ms: number): Buffer[] {
    const samples = Math.max(1, Math.round((ms * SAMPLE_RATE) / 1000))
    const table = toneTable(this.options.frequency ?? 440)
    const audio = Buffer.allocUnsafe(samples * 2) // filled from the table just below
    for (let written = 0; written < samples;) {
      const count = Math.min(samples - written, SAMPLE_RATE - this.phase)
      table.copy(audio, written * 2, this.phase * 2, (this.phase + count) * 2)
      written += count
      this.phase = (this.phase + count) % SAMPLE_RATE
    }
    const chunkBytes = audioBytes(this.options.chunkMs ?? 100)
    const chunks: Buffer[] = []
    for (let offset = 0; offset < audio.length; offset += chunkBytes) {
      chunks.push(audio.subarray(offset, offset + chunkBytes))
    }
    return chunks
  }
}
