import { audioBytes } from '../protocol/commands.js'
import { VAD } from './VAD.js'

export interface EnergyVADOptions {
  /** Loudness (dBFS of a 20 ms window) above which a window counts as voice (default -40). */
  thresholdDb?: number
  /** Voice that must last before `SpeechStart` (default 200 ms): shorter sounds are not speech. */
  minSpeechMs?: number
  /** Quiet that must last before `SpeechEnd` (default 600 ms). */
  silenceMs?: number
  /**
   * Quiet that makes a pause (`SpeechPause`, then `SpeechResume` or `SpeechEnd`), less than
   * `silenceMs`; without it no pause is reported. For preemptive answers.
   */
  pauseMs?: number
}

const WINDOW_MS = 20

/**
 * The simplest VAD: a 20 ms window is voice when it is louder than a threshold. Deterministic and
 * free, for tests, quiet lines and as a fallback; it takes any loud noise for speech, so a real
 * call wants a model (`SileroVAD` in `@openmic/silero`).
 *
 * @example
 * const vad = new EnergyVAD({ thresholdDb: -40, minSpeechMs: 200, silenceMs: 600 })
 * vad.on('SpeechStart', ({ atMs }) => console.log('speech from', atMs, 'ms'))
 * vad.process(pcm16k)
 */
export class EnergyVAD extends VAD {
  private readonly threshold: number
  private readonly minSpeechWindows: number
  private readonly silenceWindows: number
  private readonly pauseWindows?: number
  private partial = Buffer.alloc(0)
  /** Windows processed so far: the position of the next one is `windows * 20` ms. */
  private windows = 0
  private speaking = false
  /** A `SpeechPause` went and no `SpeechResume` or `SpeechEnd` since. */
  private paused = false
  /** Loud (or, while speaking, quiet) windows in a row, and where the run began. */
  private run = 0
  private runStart = 0

  constructor(options: EnergyVADOptions = {}) {
    super()
    const { thresholdDb = -40, minSpeechMs = 200, silenceMs = 600 } = options
    for (const [name, value] of Object.entries({ minSpeechMs, silenceMs })) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`EnergyVAD: ${name} must be a number of ms >= 0 (got ${value})`)
      }
    }
    if (!Number.isFinite(thresholdDb) || thresholdDb > 0) {
      throw new RangeError(`EnergyVAD: thresholdDb must be a dBFS level <= 0 (got ${thresholdDb})`)
    }
    this.threshold = 32768 * 10 ** (thresholdDb / 20)
    this.minSpeechWindows = Math.max(1, Math.ceil(minSpeechMs / WINDOW_MS))
    this.silenceWindows = Math.max(1, Math.ceil(silenceMs / WINDOW_MS))
    const { pauseMs } = options
    if (pauseMs !== undefined) {
      if (!Number.isFinite(pauseMs) || pauseMs < 0 || pauseMs >= silenceMs) {
        throw new RangeError(
          `EnergyVAD: pauseMs must be a number of ms >= 0 and < silenceMs (${silenceMs}), got ${pauseMs}`
        )
      }
      this.pauseWindows = Math.max(1, Math.ceil(pauseMs / WINDOW_MS))
    }
  }

  process(audio: Buffer): void {
    const bytes = audioBytes(WINDOW_MS)
    const data = this.partial.length > 0 ? Buffer.concat([this.partial, audio]) : audio
    let offset = 0
    for (; offset + bytes <= data.length; offset += bytes) this.window(data, offset, bytes)
    this.partial = Buffer.from(data.subarray(offset))
  }

  reset(): void {
    this.speaking = false
    this.paused = false
    this.run = 0
  }

  private window(data: Buffer, offset: number, bytes: number) {
    let sum = 0
    for (let i = offset; i < offset + bytes; i += 2) {
      const sample = data.readInt16LE(i)
      sum += sample * sample
    }
    const loud = Math.sqrt(sum / (bytes / 2)) > this.threshold
    const atMs = this.windows * WINDOW_MS
    this.windows++
    // A run of windows that go against the current state: voice while quiet, quiet while speaking
    if (loud !== this.speaking) {
      if (this.run === 0) this.runStart = atMs
      this.run++
    } else {
      this.run = 0
      if (this.paused) {
        this.paused = false
        this.emit('SpeechResume', { atMs })
      }
    }
    if (!this.speaking && this.run >= this.minSpeechWindows) {
      this.speaking = true
      this.run = 0
      this.emit('SpeechStart', { atMs: this.runStart })
    } else if (this.speaking && this.run >= this.silenceWindows) {
      this.speaking = false
      this.paused = false
      this.run = 0
      this.emit('SpeechEnd', { atMs: this.runStart })
    } else if (this.speaking && !this.paused && this.run === this.pauseWindows) {
      this.paused = true
      this.emit('SpeechPause', { atMs: this.runStart })
    }
  }
}
