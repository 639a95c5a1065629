import type { Readable } from 'node:stream'
import { STT, type ProviderErrorDetails } from '@openmic/core'
import { Pcm16Aligner } from '@openmic/core/provider'
import { localFailure } from '../errors.js'
import { checkPocketsphinx } from '../native/pocketsphinx.js'
import type { WorkerHost } from '../worker/WorkerHost.js'
import { WorkerPool } from '../worker/WorkerPool.js'
import { LocalSTTError } from './errors.js'
import type { SttRequest, SttResponse, SttWorkerData } from './messages.js'
import type { LocalSTTOptions } from './options.js'

/** Loaded decoders, kept between calls: a new LocalSTT takes one whose model is already loaded. */
const pool = new WorkerPool<SttRequest, SttResponse>(new URL('./stt-worker.js', import.meta.url))

/** Utterance numbers, unique in the process: a pooled worker's late answers never match. */
let lastUtt = 0

/** The utterance being streamed to the worker. */
interface Streaming {
  utt: number
  detach: () => void
}

/**
 * Offline speech-to-text with CMU pocketsphinx and Debian's US-English model. No key, no download.
 *
 * The decoder runs in a worker thread (the event loop never blocks) and decodes while the user
 * speaks, so the transcript is ready a few milliseconds after the audio stream ends. The model
 * loads once (about half a second, in the background; await {@link LocalSTT.ready} to wait for
 * it) and the decoder is reused for every utterance. `destroy()` gives the loaded decoder back
 * for the next `LocalSTT` with the same options (one is kept), so the next call starts at once.
 * Emits one `Transcript` per utterance once its audio ended: `''` when nothing was recognized (the
 * server then skips the answer).
 *
 * @throws {LocalSetupError} when `libpocketsphinx3` or `pocketsphinx-en-us` is not installed.
 *
 * @example
 * const stt = new LocalSTT()
 * stt.on('Transcript', (text) => console.log(text))
 * stt.transcribe(audio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class LocalSTT extends STT {
  /** `local`, models run in this process, for tracing. */
  override get providerName(): string {
    return 'local'
  }

  private readonly host: WorkerHost<SttRequest, SttResponse>
  private readonly workerData: SttWorkerData
  private streaming?: Streaming
  private destroyed = false
  /** Utterances whose transcript is awaited. */
  private readonly waiting = new Set<number>()

  /**
   * Loads the model before the first `LocalSTT` needs it: starts a decoder's worker thread now
   * and keeps it in the pool, so the next `new LocalSTT(options)` takes a loaded decoder instead
   * of loading the model (about half a second of CPU) while its call starts. Call it when a server
   * starts. A `LocalSTT` created before the model has loaded takes the loading decoder, never a
   * second one; the idle worker does not keep the process alive.
   *
   * @param options - those the calls will use (a decoder is shared by equal options).
   * @returns resolves once the model is loaded.
   * @throws {LocalSetupError} (as a rejection) when `libpocketsphinx3` or `pocketsphinx-en-us` is
   *   not installed.
   *
   * @example
   * await LocalSTT.warmUp()
   * await app.listen({ port: 3000 }) // the first call's decoder is already loaded
   */
  static async warmUp(options: LocalSTTOptions = {}): Promise<void> {
    checkPocketsphinx(options)
    await pool.prepare({ options } satisfies SttWorkerData).ready
  }

  constructor(options: LocalSTTOptions = {}) {
    super()
    checkPocketsphinx(options)
    this.workerData = { options }
    this.host = pool.acquire(this.workerData, {
      onMessage: (message) => this.onMessage(message),
      onFatal: (error) => this.onFatal(error),
    })
  }

  /** Resolves once the model is loaded; `transcribe()` may be called before (audio waits). */
  ready(): Promise<void> {
    return this.host.ready
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) return
    this.abortStreaming()
    const utt = ++lastUtt
    const failure = this.host.error
    if (failure) {
      process.nextTick(() => this.emit('Failed', localFailure(failure, sttError)))
      return
    }
    const aligner = new Pcm16Aligner()
    this.waiting.add(utt)
    this.host.hold()
    this.host.post({ type: 'start', utt })
    this.log(`Utterance ${utt} started`)

    const onData = (chunk: Buffer | string) => {
      const whole = aligner.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      // A copy that owns its memory: it is transferred to the worker.
      const samples = new Int16Array(whole.length / 2)
      new Uint8Array(samples.buffer).set(whole)
      if (samples.length > 0) this.host.post({ type: 'audio', utt, samples }, [samples.buffer])
    }
    const onEnd = () => {
      detach()
      this.streaming = undefined
      this.host.post({ type: 'end', utt })
    }
    const onError = (error: unknown) => {
      this.abortStreaming()
      // The caller's own error, as it is.
      this.emit('Failed', error)
    }
    // Destroyed without an error and without ending: the utterance is dropped.
    const onClose = () => this.abortStreaming()
    const detach = () => {
      audio.off('data', onData)
      audio.off('end', onEnd)
      audio.off('error', onError)
      audio.off('close', onClose)
    }
    this.streaming = { utt, detach }
    audio.on('data', onData)
    audio.on('end', onEnd)
    audio.on('error', onError)
    audio.on('close', onClose)
  }

  override destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.abortStreaming()
    for (const utt of this.waiting) this.settle(utt)
    pool.giveBack(this.workerData, this.host)
    super.destroy()
  }

  /** Stops listening to the utterance being streamed and drops it. */
  private abortStreaming() {
    const streaming = this.streaming
    if (!streaming) return
    this.streaming = undefined
    streaming.detach()
    this.host.post({ type: 'abort', utt: streaming.utt })
    this.settle(streaming.utt)
  }

  private settle(utt: number): boolean {
    if (!this.waiting.delete(utt)) return false
    this.host.release()
    return true
  }

  private onMessage(message: SttResponse) {
    if (message.type === 'ready' || !this.settle(message.utt)) return
    if (message.type === 'error') {
      this.emit('Failed', new LocalSTTError(message.message))
      return
    }
    this.log(`Utterance ${message.utt}: "${message.text}"`)
    this.emitFinalTranscript(message.text)
  }

  private onFatal(error: Error) {
    this.streaming?.detach()
    this.streaming = undefined
    for (const utt of this.waiting) this.settle(utt)
    this.emit('Failed', localFailure(error, sttError))
  }
}

function sttError(message: string, details: ProviderErrorDetails): LocalSTTError {
  return new LocalSTTError(message, details)
}
