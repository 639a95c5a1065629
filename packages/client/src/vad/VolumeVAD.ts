import { audioMs } from '@openmic/core/protocol'
import type { MicSource } from '../audio/types.js'
import { VAD, VADStatus } from './VAD.js'

export interface VolumeVADOptions {
  /** Level above which a frame counts as voice, in dBFS (default -50). */
  threshold: number
  /** Loud time needed to confirm speech, in ms (default 100). */
  confirmMs: number
  /** Quiet time that cancels a start not yet confirmed, in ms (default 100). */
  cancelMs: number
  /** Quiet time that ends confirmed speech, in ms (default 600). */
  stopMs: number
  /**
   * Quiet time within confirmed speech that makes a pause (`PauseSpeaking`), in ms (default
   * 200): the user may go on. A value of `stopMs` or more reports no pause.
   */
  pauseMs: number
}

export const DEFAULT_VOLUME_VAD_OPTIONS: VolumeVADOptions = {
  threshold: -50,
  confirmMs: 100,
  cancelMs: 100,
  stopMs: 600,
  pauseMs: 200,
}

/**
 * The default VAD: speech is a level above `threshold`. A click does not start a turn
 * (`confirmMs` of loud audio are needed), a pause between words does not end it (`stopMs`).
 * Within speech, `pauseMs` of quiet is a pause, which a server that answers at pauses is told of.
 * It reads the level of each microphone frame, so it costs nothing.
 */
export class VolumeVAD extends VAD {
  readonly name = 'volume'
  readonly delay = 200
  readonly options: VolumeVADOptions

  private mic?: MicSource
  private loudMs = 0
  private quietMs = 0

  constructor(options: Partial<VolumeVADOptions> = {}) {
    super()
    this.options = { ...DEFAULT_VOLUME_VAD_OPTIONS, ...options }
  }

  async start(mic: MicSource): Promise<void> {
    if (this.mic) return
    this.mic = mic
    mic.on('Frame', this.onFrame)
  }

  async stop(): Promise<void> {
    this.mic?.off('Frame', this.onFrame)
    this.mic = undefined
    this.reset()
  }

  protected override reset(): void {
    this.loudMs = 0
    this.quietMs = 0
    super.reset()
  }

  /** Feeds one frame's level (also what `start()` wires to the microphone). */
  process(volume: number, durationMs: number): void {
    if (this.isPaused) return
    const loud = volume > this.options.threshold
    if (loud) {
      this.quietMs = 0
      this.loudMs += durationMs
      this.resumeSpeaking()
      this.startSpeaking()
      if (this.loudMs >= this.options.confirmMs) this.confirmSpeaking()
      return
    }
    this.quietMs += durationMs
    if (this.status === VADStatus.MaybeSpeaking && this.quietMs >= this.options.cancelMs) {
      this.loudMs = 0
      this.cancelSpeaking()
    } else if (this.status === VADStatus.Speaking && this.quietMs >= this.options.stopMs) {
      this.loudMs = 0
      this.stopSpeaking()
    } else if (this.status === VADStatus.Speaking && this.quietMs >= this.options.pauseMs) {
      this.pauseSpeaking()
    }
  }

  private onFrame = (pcm: Int16Array, volume: number) => {
    this.process(volume, audioMs(pcm.byteLength))
  }
}
