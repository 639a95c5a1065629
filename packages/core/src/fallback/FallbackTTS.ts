import { PassThrough, type Readable } from 'node:stream'
import { audioMs } from '../protocol/commands.js'
import { followText } from '../speech/follow-stream.js'
import { TTS } from '../tts/TTS.js'
import type { FallbackSwitch } from '../telemetry/reports.js'
import { ProviderChain } from './ProviderChain.js'

export interface FallbackTTSOptions {
  /** Build the TTSs to use, in order of preference. Each is built when first needed. */
  factories: Array<() => TTS>
  /** Switch when no audio came this long after the first text of a `speak()` (default 5 000 ms). */
  firstAudioTimeoutMs?: number
}

/** The text of the current `speak()`. */
interface SpeakJob {
  readonly text: Readable
  detach: () => void
  /** Text received, split where the current TTS emitted audio: `unspoken` is after its last audio. */
  unspoken: string
  all: string
  /** Duration of the audio emitted for this `speak()` so far, in ms. */
  audioMs: number
  /** Where the current TTS's audio starts in this `speak()`, in ms: its `Words` are shifted by it. */
  offsetMs: number
  ended: boolean
  gotAudio: boolean
  input: PassThrough
  timer?: NodeJS.Timeout
}

/**
 * Speaks with the first TTS and switches to the next one when it fails (emits `Failed`, throws, or
 * sends no audio within `firstAudioTimeoutMs`), then keeps using it. The text the failed TTS had
 * not spoken is replayed to the next one: all of it when no audio had come, else the text received
 * after its last audio chunk (TTSs speak in order; text that came before was at least being
 * spoken). `Failed` is emitted only when the last TTS fails.
 */
export class FallbackTTS extends TTS {
  private readonly firstAudioTimeoutMs: number
  private readonly chain: ProviderChain<TTS>
  private job?: SpeakJob

  constructor(options: FallbackTTSOptions) {
    super()
    this.firstAudioTimeoutMs = options.firstAudioTimeoutMs ?? 5000
    this.chain = new ProviderChain('FallbackTTS', options.factories, (tts) => this.wire(tts))
  }

  /** The TTS currently in use. */
  get current(): TTS {
    return this.chain.active
  }

  /** The provider of the TTS in use (it changes when one fails). */
  override get providerName(): string {
    return this.chain.active.providerName
  }

  speak(text: Readable): void {
    this.stopJob()
    const job: SpeakJob = {
      text,
      unspoken: '',
      all: '',
      audioMs: 0,
      offsetMs: 0,
      ended: false,
      gotAudio: false,
      input: new PassThrough(),
      detach: () => {},
    }
    this.job = job
    job.detach = followText(text, {
      data: (piece) => {
        job.unspoken += piece
        job.all += piece
        job.input.write(piece)
        this.armTimeout(job)
      },
      end: () => {
        job.ended = true
        job.input.end()
      },
      // The text itself broke: no TTS can speak it.
      error: (error) => {
        this.stopJob()
        this.chain.active.cancel()
        this.emit('Failed', error)
      },
    })
    this.start(job)
  }

  cancel(): void {
    this.stopJob()
    this.chain.active.cancel()
  }

  override destroy(): void {
    this.stopJob()
    this.chain.active.destroy()
    super.destroy()
  }

  /** Listens to a provider of the chain (only the active one's events count). */
  private wire(tts: TTS): void {
    if (this.logger && !tts.logger) tts.logger = this.logger
    tts.on('Audio', (audio) => {
      const job = this.job
      if (tts !== this.chain.active || !job) return
      job.gotAudio = true
      job.unspoken = ''
      job.audioMs += audioMs(audio.length)
      clearTimeout(job.timer)
      this.emit('Audio', audio)
    })
    tts.on('Words', (words) => {
      const job = this.job
      if (tts !== this.chain.active || !job) return
      const shift = job.offsetMs
      this.emit(
        'Words',
        shift === 0
          ? words
          : words.map((word) => ({
              ...word,
              startMs: word.startMs + shift,
              endMs: word.endMs + shift,
            }))
      )
    })
    tts.on('AudioEnd', () => {
      if (tts !== this.chain.active || !this.job) return
      this.stopJob()
      this.emit('AudioEnd')
    })
    tts.on('Failed', (error) => {
      if (tts === this.chain.active) this.fail(error)
    })
  }

  private start(job: SpeakJob) {
    try {
      this.chain.active.speak(job.input)
    } catch (error) {
      this.fail(error)
    }
  }

  private fail(error: unknown) {
    const job = this.job
    if (!this.chain.hasNext) {
      this.log('Last TTS failed:', error)
      this.stopJob()
      // Given up on (a stall): its request must not go on synthesizing audio nobody hears.
      try {
        this.chain.active.cancel()
      } catch (cancelError) {
        this.log('Cancelling the failed TTS failed:', cancelError)
      }
      this.emit('Failed', error)
      return
    }
    this.log(`TTS ${this.chain.position} failed, switching:`, error)
    this.tellSwitch(this.chain.advance(error))
    if (!job) return
    clearTimeout(job.timer)
    const replay = job.gotAudio ? job.unspoken : job.all
    job.offsetMs = job.audioMs
    job.input = new PassThrough()
    if (replay) job.input.write(replay)
    if (job.ended) job.input.end()
    if (replay) this.armTimeout(job)
    this.start(job)
  }

  /** `Fallback`: a listener that throws must not stop the switch. */
  private tellSwitch(fallback: FallbackSwitch) {
    try {
      this.emit('Fallback', fallback)
    } catch (error) {
      this.log('A Fallback listener threw:', error)
    }
  }

  private armTimeout(job: SpeakJob) {
    if (job.gotAudio || job.timer) return
    job.timer = setTimeout(() => {
      job.timer = undefined
      if (this.job === job && !job.gotAudio)
        this.fail(new Error(`No audio within ${this.firstAudioTimeoutMs} ms`))
    }, this.firstAudioTimeoutMs)
  }

  private stopJob() {
    const job = this.job
    if (!job) return
    this.job = undefined
    clearTimeout(job.timer)
    job.detach()
  }
}
