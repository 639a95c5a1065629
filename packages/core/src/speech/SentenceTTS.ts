import type { Readable } from 'node:stream'
import { ProviderError, type ProviderErrorDetails } from '../retry/ProviderError.js'
import { TTS } from '../tts/TTS.js'
import { SentenceSplitter } from './SentenceSplitter.js'
import { Pcm16Aligner } from './Pcm16Aligner.js'
import { followText } from './follow-stream.js'

export interface SentenceTTSOptions {
  /**
   * Sentences whose request may run ahead of the one being heard (default 1: the next sentence's
   * request starts while the current one still streams, so there is no silence between them).
   */
  lookahead?: number
  /** A sentence longer than this without an end is cut at a clause mark or a space (default 200). */
  maxSentenceLength?: number
  /**
   * A sentence's audio that stops coming for this long (before its first byte, or between two
   * chunks) fails the `speak()` with `Failed`, so that a stalled provider never hangs a call
   * (default 10 000 ms).
   */
  stallTimeoutMs?: number
}

/** The audio of one sentence, received while earlier sentences are still being heard. */
interface SentenceAudio {
  readonly text: string
  readonly chunks: Buffer[]
  done: boolean
  /** Why its request failed: reported once the sentences before it were heard. */
  error?: unknown
  timer?: ReturnType<typeof setTimeout>
}

/** One `speak()`: its sentences in order, the first of `pending` is the one being heard. */
interface SpeakJob {
  readonly abort: AbortController
  readonly splitter: SentenceSplitter
  readonly waiting: string[]
  readonly pending: SentenceAudio[]
  detach: () => void
  textEnded: boolean
  /** Keeps the provider's audio in whole samples across its chunks. */
  readonly aligner: Pcm16Aligner
}

/**
 * A TTS for providers that synthesize one piece of text per request (HTTP APIs such as OpenAI's or
 * Mistral's speech endpoints). The text of `speak()` is cut into sentences as it streams in; each
 * sentence is one call of {@link SentenceTTS.synthesize}. The next sentence's request starts while
 * the previous one still streams (`lookahead`), and audio is emitted strictly in sentence order.
 *
 * It meets the TTS contract for its subclass: `AudioEnd` once the text ended and every sentence
 * was heard; `cancel()` aborts every request in flight and nothing of the cancelled text is
 * emitted afterwards; a failed or stalled request emits `Failed` and ends the `speak()`, once the
 * sentences before it were heard.
 *
 * @example
 * class AcmeTTS extends SentenceTTS {
 *   protected async *synthesize(sentence: string, signal: AbortSignal) {
 *     const response = await fetch(url, { method: 'POST', body: sentence, signal })
 *     if (!response.ok) throw new Error(`Acme TTS: HTTP ${response.status}`)
 *     const to16k = new Resampler({ fromRate: 24_000, toRate: 16_000 })
 *     for await (const chunk of response.body!) yield to16k.write(chunk)
 *     yield to16k.end()
 *   }
 * }
 */
export abstract class SentenceTTS extends TTS {
  private readonly lookahead: number
  private readonly maxSentenceLength: number
  private readonly stallTimeoutMs: number
  private job?: SpeakJob

  constructor(options: SentenceTTSOptions = {}) {
    super()
    this.lookahead = Math.max(0, options.lookahead ?? 1)
    this.maxSentenceLength = options.maxSentenceLength ?? 200
    this.stallTimeoutMs = options.stallTimeoutMs ?? 10_000
  }

  /**
   * Speech for one sentence, as PCM16 16 kHz mono chunks (of any byte length). Stop when `signal`
   * aborts; throw on failure (an error naming the provider and the HTTP status).
   */
  protected abstract synthesize(sentence: string, signal: AbortSignal): AsyncIterable<Buffer>

  /**
   * The error of a failure found here (a stalled request, a broken text stream): a
   * {@link ProviderError} named after the class, unless the provider gives its own class.
   */
  protected failure(message: string, details?: ProviderErrorDetails): Error {
    return new ProviderError(this.constructor.name, message, details)
  }

  speak(text: Readable): void {
    this.stopJob()
    const job: SpeakJob = {
      abort: new AbortController(),
      splitter: new SentenceSplitter(this.maxSentenceLength),
      waiting: [],
      pending: [],
      textEnded: false,
      aligner: new Pcm16Aligner(),
      detach: () => {},
    }
    this.job = job
    job.detach = followText(text, {
      data: (chunk) => {
        for (const sentence of job.splitter.push(chunk)) job.waiting.push(sentence)
        this.startRequests(job)
      },
      end: () => {
        job.textEnded = true
        for (const sentence of job.splitter.flush()) job.waiting.push(sentence)
        this.startRequests(job)
        this.advance(job)
      },
      error: (error) =>
        this.fail(
          job,
          this.failure(`the text stream failed: ${messageOf(error)}`, { cause: error })
        ),
    })
  }

  cancel(): void {
    if (this.job) this.log('Cancel')
    this.stopJob()
  }

  /** Starts the requests of waiting sentences, as far as the lookahead allows. */
  private startRequests(job: SpeakJob): void {
    while (this.job === job && job.waiting.length > 0 && job.pending.length <= this.lookahead) {
      const sentence: SentenceAudio = { text: job.waiting.shift()!, chunks: [], done: false }
      job.pending.push(sentence)
      void this.request(job, sentence)
    }
  }

  private async request(job: SpeakJob, sentence: SentenceAudio): Promise<void> {
    this.watchStall(job, sentence)
    try {
      for await (const chunk of this.synthesize(sentence.text, job.abort.signal)) {
        if (this.job !== job) return
        this.watchStall(job, sentence)
        if (chunk.length === 0) continue
        if (job.pending[0] === sentence) this.emitAudio(job, chunk)
        else sentence.chunks.push(chunk)
      }
      if (this.job !== job) return
      clearTimeout(sentence.timer)
      sentence.done = true
      this.advance(job)
    } catch (error) {
      clearTimeout(sentence.timer)
      if (this.job !== job) return
      sentence.error = error ?? this.failure('synthesis failed')
      this.advance(job)
    }
  }

  /** Emits what the sentences at the head hold, moves past finished ones, and ends the speak. */
  private advance(job: SpeakJob): void {
    const head = job.pending[0]
    if (head?.error !== undefined) return this.fail(job, head.error)
    while (this.job === job && job.pending[0]?.done) {
      job.pending.shift()
      const next = job.pending[0]
      if (next) for (const chunk of next.chunks.splice(0)) this.emitAudio(job, chunk)
      if (next?.error !== undefined) return this.fail(job, next.error)
      this.startRequests(job)
    }
    if (this.job === job && job.textEnded && job.pending.length === 0 && job.waiting.length === 0) {
      this.stopJob()
      this.emit('AudioEnd')
    }
  }

  /** Emits PCM16 in whole samples: a byte split between two chunks waits for the next one. */
  private emitAudio(job: SpeakJob, chunk: Buffer): void {
    const audio = job.aligner.write(chunk)
    if (audio.length > 0) this.emit('Audio', audio)
  }

  private watchStall(job: SpeakJob, sentence: SentenceAudio): void {
    clearTimeout(sentence.timer)
    sentence.timer = setTimeout(() => {
      if (this.job !== job) return
      this.fail(job, this.failure(`no audio for ${this.stallTimeoutMs} ms ("${sentence.text}")`))
    }, this.stallTimeoutMs)
  }

  private fail(job: SpeakJob, error: unknown): void {
    if (this.job !== job) return
    this.stopJob()
    this.log('Failed:', error)
    this.emit('Failed', error)
  }

  private stopJob(): void {
    const job = this.job
    if (!job) return
    this.job = undefined
    job.detach()
    for (const sentence of job.pending) clearTimeout(sentence.timer)
    job.abort.abort()
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
