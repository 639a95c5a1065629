import type { Readable } from 'node:stream'
import { TTS, type ProviderErrorDetails } from '@openmic/core'
import { audioBytes } from '@openmic/core/provider'
import { checkFlite } from '../native/flite.js'
import type { WorkerHost } from '../worker/WorkerHost.js'
import { WorkerPool } from '../worker/WorkerPool.js'
import { localFailure } from '../errors.js'
import type { TtsRequest, TtsResponse, TtsWorkerData } from './messages.js'
import { LocalTTSError } from './errors.js'
import type { LocalTTSOptions } from './options.js'
import { SpeakJob } from './SpeakJob.js'

/** Loaded voices, kept between calls: a new LocalTTS takes one that is ready. */
const pool = new WorkerPool<TtsRequest, TtsResponse>(new URL('./tts-worker.js', import.meta.url))

/** What a worker is loaded with: LocalTTS instances with the same share a pooled worker. */
function workerDataOf(options: LocalTTSOptions): TtsWorkerData {
  return { voice: options.voice ?? 'slt' }
}

/** Request numbers, unique in the process: a pooled worker's late answers never match. */
let lastId = 0

/**
 * Offline text-to-speech with flite (Debian's `libflite1`). No key, no download.
 *
 * flite runs in-process (through koffi) in a worker thread. The text is cut into sentences as it
 * streams in, and each sentence is synthesized as soon as it is complete, so the first audio comes
 * after the first sentence, not after the whole answer. Emits `Audio` (PCM16 mono 16 kHz) chunks,
 * then `AudioEnd` once the text ended and all its audio was emitted. `cancel()` stops at once: no
 * `Audio` of the cancelled text is emitted afterwards. A `speak()` while speaking replaces the
 * current text (as `cancel()` then `speak()`). `destroy()` gives the worker back for the next
 * `LocalTTS` (one is kept).
 *
 * @throws {LocalSetupError} when `libflite1` is not installed.
 *
 * @example
 * const tts = new LocalTTS()
 * tts.on('Audio', (pcm) => speaker.write(pcm))
 * tts.speak(Readable.from(['Hello there. ', 'How can I help?']))
 */
export class LocalTTS extends TTS {
  /** `local`, models run in this process, for tracing. */
  override get providerName(): string {
    return 'local'
  }

  private readonly host: WorkerHost<TtsRequest, TtsResponse>
  private readonly workerData: TtsWorkerData
  private readonly maxSentenceLength: number
  private readonly chunkBytes: number
  /** The text being spoken. */
  private job?: SpeakJob
  /** The sentence being synthesized (one at a time, so cancel never waits for queued work). */
  private inFlight?: number
  private destroyed = false
  /** Incremented by `cancel()`: audio emission checks it between chunks. */
  private epoch = 0

  /**
   * Loads a voice before the first `LocalTTS` needs it: starts its worker thread now and keeps it
   * in the pool, so the next `new LocalTTS(options)` takes it and its first `speak()` does not
   * wait for a thread to start and load flite (about 100–150 ms, more while other work competes
   * for the CPU). Call it when a server starts. A `LocalTTS` created before the voice has loaded
   * takes the loading worker, never a second one; the idle worker does not keep the process alive.
   *
   * @param options - those the calls will use (only `voice` matters here).
   * @returns resolves once the voice is loaded.
   * @throws {LocalSetupError} (as a rejection) when `libflite1` is not installed.
   *
   * @example
   * await LocalTTS.warmUp()
   * await app.listen({ port: 3000 }) // the first call's greeting is spoken at once
   */
  static async warmUp(options: LocalTTSOptions = {}): Promise<void> {
    const workerData = workerDataOf(options)
    checkFlite(workerData.voice)
    await pool.prepare(workerData).ready
  }

  constructor(options: LocalTTSOptions = {}) {
    super()
    checkFlite(options.voice ?? 'slt')
    this.maxSentenceLength = options.maxSentenceLength ?? 200
    this.chunkBytes = Math.max(2, audioBytes(options.chunkMs ?? 250))
    this.workerData = workerDataOf(options)
    this.host = pool.acquire(this.workerData, {
      onMessage: (message) => this.onMessage(message),
      onFatal: (error) => this.onFatal(error),
    })
  }

  /** Resolves once the voice is loaded; `speak()` may be called before. */
  ready(): Promise<void> {
    return this.host.ready
  }

  speak(text: Readable): void {
    if (this.destroyed) return
    this.stop()
    const failure = this.host.error
    if (failure) {
      process.nextTick(() => this.emit('Failed', localFailure(failure, ttsError)))
      return
    }
    const job: SpeakJob = new SpeakJob(
      text,
      this.maxSentenceLength,
      () => this.job === job && this.pump(),
      (error) => this.job === job && this.emit('Failed', error)
    )
    this.job = job
    this.pump()
  }

  cancel(): void {
    if (this.job) this.log('Cancelled')
    this.stop()
  }

  override destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    super.destroy()
    pool.giveBack(this.workerData, this.host)
  }

  /** Drops the current text and the sentence in flight: none of their audio is emitted. */
  private stop() {
    this.epoch++
    this.job?.detach()
    this.job = undefined
    this.settleInFlight()
  }

  /** Sends the next sentence to the worker, or ends the current job. */
  private pump() {
    const job = this.job
    if (!job || this.inFlight !== undefined) return
    const text = job.sentences.shift()
    if (text !== undefined) {
      this.inFlight = ++lastId
      this.host.hold()
      this.host.post({ type: 'speak', id: this.inFlight, text })
      return
    }
    if (!job.ended) return
    this.job = undefined
    this.emit('AudioEnd')
  }

  private settleInFlight(): boolean {
    if (this.inFlight === undefined) return false
    this.inFlight = undefined
    this.host.release()
    return true
  }

  private onMessage(message: TtsResponse) {
    if (message.type === 'ready' || message.id !== this.inFlight) return
    this.settleInFlight()
    if (message.type === 'error') this.emit('Failed', new LocalTTSError(message.message))
    else this.emitAudio(message.samples)
    this.pump()
  }

  /** Emits the sentence in chunks; stops if a listener cancels. */
  private emitAudio(samples: Int16Array) {
    const epoch = this.epoch
    const audio = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
    for (let start = 0; start < audio.length && epoch === this.epoch; start += this.chunkBytes) {
      this.emit('Audio', audio.subarray(start, start + this.chunkBytes))
    }
  }

  private onFatal(error: Error) {
    this.stop()
    this.emit('Failed', localFailure(error, ttsError))
  }
}

function ttsError(message: string, details: ProviderErrorDetails): LocalTTSError {
  return new LocalTTSError(message, details)
}
