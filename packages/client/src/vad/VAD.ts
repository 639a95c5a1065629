import { EventEmitter } from 'eventemitter3'
import type { MicSource } from '../audio/types.js'

/** Where a VAD is in an utterance. */
export const VADStatus = {
  Silence: 0,
  /** Something started that may be speech. */
  MaybeSpeaking: 1,
  /** Speech is confirmed. */
  Speaking: 2,
} as const
export type VADStatus = (typeof VADStatus)[keyof typeof VADStatus]

export interface VADEvents {
  /** Something that may be speech started (not confirmed yet). */
  StartSpeaking: []
  /** The speech is confirmed: the user is talking. */
  ConfirmSpeaking: []
  /** What started was noise: forget it. */
  CancelSpeaking: []
  /**
   * Confirmed speech went quiet for the VAD's pause time, shorter than its end of speech: the
   * user may go on (`ResumeSpeaking`) or have stopped (`StopSpeaking` follows).
   */
  PauseSpeaking: []
  /** After `PauseSpeaking`, the speech went on before its end. */
  ResumeSpeaking: []
  /** Confirmed speech ended. */
  StopSpeaking: []
  StatusChange: [VADStatus]
}

/**
 * Voice activity detection. Subclasses call the protected transitions, which keep `status`
 * consistent and emit the events in the only valid orders:
 * `StartSpeaking → (CancelSpeaking | ConfirmSpeaking → (PauseSpeaking → ResumeSpeaking)* →
 * [PauseSpeaking] → StopSpeaking)`. A pause does not change `status`: the user is still speaking.
 */
export abstract class VAD extends EventEmitter<VADEvents> {
  /** Display name. */
  abstract readonly name: string
  /**
   * Worst-case time, in ms, between the start of speech and `StartSpeaking`. That much audio is
   * kept before it (the pre-roll) and sent with the utterance, so the first syllable is not lost.
   */
  abstract readonly delay: number

  status: VADStatus = VADStatus.Silence
  private paused = false
  private speechPaused = false

  abstract start(mic: MicSource): Promise<void>
  abstract stop(): Promise<void>

  /** Detection is paused (`pause()`). */
  get isPaused(): boolean {
    return this.paused
  }

  /** Confirmed speech is in a pause (`PauseSpeaking` and no `ResumeSpeaking` or `StopSpeaking` since). */
  get isSpeechPaused(): boolean {
    return this.speechPaused
  }

  /** Stops detecting (ending any utterance in progress) until `resume()`. */
  pause(): void {
    if (this.paused) return
    this.paused = true
    this.onPause()
    this.reset()
  }

  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.onResume()
  }

  /** Hooks for subclasses. */
  protected onPause(): void {}
  protected onResume(): void {}

  /** Ends the current utterance: `StopSpeaking` if confirmed, `CancelSpeaking` if not. */
  protected reset(): void {
    if (this.status === VADStatus.Speaking) this.stopSpeaking()
    else if (this.status === VADStatus.MaybeSpeaking) this.cancelSpeaking()
  }

  protected startSpeaking(): void {
    if (this.status !== VADStatus.Silence) return
    this.setStatus(VADStatus.MaybeSpeaking)
    this.emit('StartSpeaking')
  }

  protected confirmSpeaking(): void {
    if (this.status === VADStatus.Speaking) return
    if (this.status === VADStatus.Silence) this.startSpeaking()
    this.setStatus(VADStatus.Speaking)
    this.emit('ConfirmSpeaking')
  }

  protected cancelSpeaking(): void {
    if (this.status !== VADStatus.MaybeSpeaking) return
    this.setStatus(VADStatus.Silence)
    this.emit('CancelSpeaking')
  }

  /** Confirmed speech went quiet for the pause time. */
  protected pauseSpeaking(): void {
    if (this.status !== VADStatus.Speaking || this.speechPaused) return
    this.speechPaused = true
    this.emit('PauseSpeaking')
  }

  /** The speech went on after a pause. */
  protected resumeSpeaking(): void {
    if (this.status !== VADStatus.Speaking || !this.speechPaused) return
    this.speechPaused = false
    this.emit('ResumeSpeaking')
  }

  protected stopSpeaking(): void {
    if (this.status !== VADStatus.Speaking) return
    this.speechPaused = false
    this.setStatus(VADStatus.Silence)
    this.emit('StopSpeaking')
  }

  private setStatus(status: VADStatus): void {
    if (this.status === status) return
    this.status = status
    this.emit('StatusChange', status)
  }
}
