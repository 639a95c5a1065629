import { VAD } from '@openmic/core'
import { loadModel } from './model/load-model.js'
import { CONTEXT_SAMPLES, STATE_SIZE, WINDOW_SAMPLES } from './model/SileroModel.js'
import { resolveOptions, type SileroVADOptions } from './options.js'
import { Pcm16Windows } from './vad/Pcm16Windows.js'
import { SpeechTracker } from './vad/SpeechTracker.js'

/**
 * Server-side voice activity detection with the Silero VAD v5 model, for audio that comes without
 * a client VAD (a phone call): give it the call's PCM16 16 kHz mono audio, get `SpeechStart` and
 * `SpeechEnd` with their positions in that audio.
 *
 * The model loads once per process (the first `SileroVAD`, or {@link SileroVAD.warmUp}) and is
 * shared; each instance has its own recurrent state. `process()` returns at once: the audio is
 * queued and analysed in 32 ms windows in order, also while the model is still loading, so
 * nothing of a call's first words is lost.
 *
 * @example
 * const vad = new SileroVAD({ minSpeechMs: 250 })
 * vad.on('SpeechStart', ({ atMs }) => console.log('speech from', atMs, 'ms'))
 * vad.on('SpeechEnd', ({ atMs }) => console.log('silence from', atMs, 'ms'))
 * socket.on('audio', (pcm16: Buffer) => vad.process(pcm16))
 */
export class SileroVAD extends VAD {
  private readonly tracker: SpeechTracker
  private readonly windows = new Pcm16Windows()
  /** Windows given but not analysed yet, the oldest first. */
  private queue: Float32Array[] = []
  private state: Float32Array = new Float32Array(STATE_SIZE)
  /** The last samples of the previous window, put before the next one. */
  private context: Float32Array = new Float32Array(CONTEXT_SAMPLES)
  /** Samples of the windows queued so far (so the start of the next one queued). */
  private queuedSamples = 0
  /** Samples of the windows analysed so far. */
  private analysedSamples = 0
  /** Windows that start before it were given before the last `reset()`: they start nothing. */
  private trackFrom = 0
  private running = false
  /** Destroyed, or failed: nothing more is analysed nor emitted. */
  private stopped = false
  private idleWaiters: Array<() => void> = []

  /**
   * @throws RangeError naming the option when an option has a bad value.
   */
  constructor(options: SileroVADOptions = {}) {
    super()
    this.tracker = new SpeechTracker(resolveOptions(options))
    this.logger = options.logger
  }

  /**
   * Loads the model now rather than on the first call's audio (about 50 ms of CPU): call it at
   * server start. Later VADs find it loaded; one loading meanwhile waits for the same load.
   *
   * @returns resolves once loaded; rejects when the model or the runtime cannot be loaded.
   */
  static async warmUp(): Promise<void> {
    await loadModel()
  }

  override process(audio: Buffer): void {
    if (this.stopped) return
    for (const window of this.windows.push(audio)) {
      this.queue.push(window)
      this.queuedSamples += WINDOW_SAMPLES
    }
    if (this.queue.length > 0 && !this.running) void this.drain()
  }

  override reset(): void {
    this.tracker.reset()
    // Windows already given (queued, or being analysed) still run through the model, whose state
    // follows the audio, but their probabilities no longer start anything.
    this.trackFrom = this.queuedSamples
  }

  /**
   * Resolves once all the audio given so far has been analysed and its events emitted (at once
   * when there is none waiting, or after `destroy()` or `Failed`). For offline use and tests: a
   * live call just listens to the events.
   */
  idle(): Promise<void> {
    if (this.stopped || (!this.running && this.queue.length === 0)) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  override destroy(): void {
    this.stop()
    super.destroy()
  }

  /** Runs the queued windows one after the other, until none is left. */
  private async drain(): Promise<void> {
    this.running = true
    try {
      while (!this.stopped && this.queue.length > 0) {
        const probability = await this.analyse(this.queue.shift()!)
        if (probability === undefined) return
        const start = this.analysedSamples
        this.analysedSamples += WINDOW_SAMPLES
        if (start < this.trackFrom) continue
        const event = this.tracker.push(start, this.analysedSamples, probability)
        // Outside analyse()'s catch: a listener's own error is not the model failing.
        if (event) this.emit(event.type, { atMs: event.atMs })
      }
    } finally {
      this.running = false
      if (this.stopped || this.queue.length === 0) this.wakeIdleWaiters()
    }
  }

  /** The window's speech probability; undefined once destroyed or failed (result dropped). */
  private async analyse(window: Float32Array): Promise<number | undefined> {
    try {
      const model = await loadModel()
      if (this.stopped) return undefined
      const input = new Float32Array(CONTEXT_SAMPLES + WINDOW_SAMPLES)
      input.set(this.context)
      input.set(window, CONTEXT_SAMPLES)
      const { probability, state } = await model.run(input, this.state)
      if (this.stopped) return undefined
      this.state = state
      this.context = window.subarray(WINDOW_SAMPLES - CONTEXT_SAMPLES)
      return probability
    } catch (error) {
      if (!this.stopped) {
        this.log('Failed:', error)
        this.stop()
        this.emit('Failed', error)
        this.removeAllListeners()
      }
      return undefined
    }
  }

  private stop(): void {
    this.stopped = true
    this.queue = []
    this.wakeIdleWaiters()
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const wake of waiters) wake()
  }
}
