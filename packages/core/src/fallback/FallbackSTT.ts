import { PassThrough, type Readable } from 'node:stream'
import { STT } from '../stt/STT.js'
import type { FallbackSwitch } from '../telemetry/reports.js'
import { ProviderChain } from './ProviderChain.js'

export interface FallbackSTTOptions {
  /** Build the STTs to use, in order of preference. Each is built when first needed. */
  factories: Array<() => STT>
  /**
   * Also switch when no transcript came this long after an utterance's audio ended (ms). Off by
   * default: an utterance of pure noise may rightly produce no transcript.
   */
  transcriptTimeoutMs?: number
}

/** The utterance being transcribed: its audio not yet covered by a transcript. */
interface PendingUtterance {
  chunks: Buffer[]
  ended: boolean
  input: PassThrough
  timer?: NodeJS.Timeout
}

/**
 * Transcribes with the first STT and switches to the next one when it fails (emits `Failed`,
 * throws, or gives no transcript within `transcriptTimeoutMs`). The audio of the current utterance
 * that the failed STT had not transcribed yet is replayed to the next one, which stays in use.
 * `Failed` is emitted only when the last STT fails.
 */
export class FallbackSTT extends STT {
  private readonly chain: ProviderChain<STT>
  private pending?: PendingUtterance
  /** The last STT failed this utterance: what it still says of it is dropped. */
  private gaveUp = false

  constructor(private readonly options: FallbackSTTOptions) {
    super()
    this.chain = new ProviderChain('FallbackSTT', options.factories, (stt) => this.wire(stt))
  }

  /** The STT currently in use. */
  get current(): STT {
    return this.chain.active
  }

  /** The provider of the STT in use (it changes when one fails). */
  override get providerName(): string {
    return this.chain.active.providerName
  }

  /** As the STT in use: it may change when one fails. */
  override get signalsTranscriptEnd(): boolean {
    return this.chain.active.signalsTranscriptEnd
  }

  transcribe(audio: Readable): void {
    this.settle()
    this.gaveUp = false
    const pending: PendingUtterance = { chunks: [], ended: false, input: new PassThrough() }
    this.pending = pending
    audio.on('data', (chunk: Buffer) => {
      if (this.pending !== pending) return
      pending.chunks.push(chunk)
      pending.input.write(chunk)
    })
    audio.once('end', () => {
      if (this.pending !== pending) return
      pending.ended = true
      pending.input.end()
      this.armTimeout(pending)
    })
    this.start(pending)
  }

  override destroy(): void {
    this.settle()
    this.chain.active.destroy()
    super.destroy()
  }

  /** Listens to a provider of the chain (only the active one's events count). */
  private wire(stt: STT): void {
    if (this.logger && !stt.logger) stt.logger = this.logger
    stt.on('Transcript', (text) => {
      if (stt !== this.chain.active || this.gaveUp) return
      const pending = this.pending
      if (pending) {
        // What was heard so far is covered; an ended utterance is done.
        pending.chunks = []
        if (pending.ended) this.settle()
      }
      this.emit('Transcript', text)
    })
    stt.on('TranscriptEnd', () => {
      if (stt !== this.chain.active || this.gaveUp) return
      if (this.pending?.ended) this.settle()
      this.emit('TranscriptEnd')
    })
    stt.on('Partial', (text) => {
      if (stt === this.chain.active && !this.gaveUp) this.emit('Partial', text)
    })
    stt.on('Failed', (error) => {
      if (stt === this.chain.active) this.fail(error)
    })
  }

  private start(pending: PendingUtterance) {
    try {
      this.chain.active.transcribe(pending.input)
    } catch (error) {
      this.fail(error)
    }
  }

  private fail(error: unknown) {
    if (!this.chain.hasNext) {
      this.log('Last STT failed:', error)
      this.settle()
      // Failed means no (further) transcript of this utterance, even if a slow STT answers late.
      this.gaveUp = true
      this.emit('Failed', error)
      return
    }
    this.log(`STT ${this.chain.position} failed, switching:`, error)
    this.tellSwitch(this.chain.advance(error))
    const pending = this.pending
    if (!pending) return
    // Replay what the failed STT had not transcribed, then keep streaming.
    clearTimeout(pending.timer)
    pending.input = new PassThrough()
    for (const chunk of pending.chunks) pending.input.write(chunk)
    if (pending.ended) {
      pending.input.end()
      this.armTimeout(pending)
    }
    this.start(pending)
  }

  /** `Fallback`: a listener that throws must not stop the switch. */
  private tellSwitch(fallback: FallbackSwitch) {
    try {
      this.emit('Fallback', fallback)
    } catch (error) {
      this.log('A Fallback listener threw:', error)
    }
  }

  private armTimeout(pending: PendingUtterance) {
    const { transcriptTimeoutMs } = this.options
    if (transcriptTimeoutMs === undefined) return
    clearTimeout(pending.timer)
    pending.timer = setTimeout(() => {
      if (this.pending !== pending) return
      this.fail(new Error(`No transcript within ${transcriptTimeoutMs} ms`))
    }, transcriptTimeoutMs)
  }

  /** Forgets the current utterance (done, replaced or abandoned). */
  private settle() {
    if (this.pending) clearTimeout(this.pending.timer)
    this.pending = undefined
  }
}
