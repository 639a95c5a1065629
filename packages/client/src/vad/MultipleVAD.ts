import type { MicSource } from '../audio/types.js'
import { VAD, VADStatus } from './VAD.js'

/**
 * Combines VADs: speech starts and is confirmed only when every VAD agrees, and ends (or pauses)
 * as soon as one of them hears silence (or a pause); it goes on after a pause once none is paused. Volume + Silero, for instance, ignores quiet voices in the room
 * (volume) and loud non-speech noise (Silero).
 */
export class MultipleVAD extends VAD {
  readonly name: string
  readonly delay: number

  constructor(readonly vads: VAD[]) {
    super()
    if (vads.length === 0) throw new Error('MultipleVAD needs at least one VAD')
    this.name = vads.map((vad) => vad.name).join('+')
    this.delay = Math.max(...vads.map((vad) => vad.delay))
  }

  async start(mic: MicSource): Promise<void> {
    for (const vad of this.vads) {
      vad.on('StatusChange', this.update)
      vad.on('PauseSpeaking', this.update)
      vad.on('ResumeSpeaking', this.update)
    }
    await Promise.all(this.vads.map((vad) => vad.start(mic)))
  }

  async stop(): Promise<void> {
    for (const vad of this.vads) {
      vad.off('StatusChange', this.update)
      vad.off('PauseSpeaking', this.update)
      vad.off('ResumeSpeaking', this.update)
    }
    await Promise.all(this.vads.map((vad) => vad.stop()))
    this.reset()
  }

  protected override onPause(): void {
    for (const vad of this.vads) vad.pause()
  }

  protected override onResume(): void {
    for (const vad of this.vads) vad.resume()
  }

  private update = () => {
    if (this.isPaused) return
    const combined = Math.min(...this.vads.map((vad) => vad.status)) as VADStatus
    if (combined !== this.status) {
      if (combined === VADStatus.Speaking) this.confirmSpeaking()
      else if (combined === VADStatus.MaybeSpeaking) {
        if (this.status === VADStatus.Speaking) this.stopSpeaking()
        else this.startSpeaking()
      } else this.reset()
    }
    if (this.vads.some((vad) => vad.isSpeechPaused)) this.pauseSpeaking()
    else this.resumeSpeaking()
  }
}
