import { EventEmitter } from 'eventemitter3'
import type { Logger } from '../logger/Logger.js'

/** A moment in the audio a {@link VAD} was given: how far into it, in ms (16 kHz samples / 16). */
export interface VADSpeechEvent {
  /** Position in the audio fed to `process()` since the VAD was created (ms). */
  atMs: number
}

export interface VADEvents {
  /**
   * The user started speaking: speech held for the VAD's minimum speech time. `atMs` is where
   * the speech began (before the minimum was reached), so an app may keep the audio from there.
   */
  SpeechStart: [event: VADSpeechEvent]
  /** The user stopped speaking: silence held for the VAD's end-of-speech time. `atMs`: where it began. */
  SpeechEnd: [event: VADSpeechEvent]
  /**
   * The user paused: silence held for the VAD's shorter pause time (a VAD with a pause time only),
   * and the end of speech is not decided yet. `atMs`: where the silence began. Followed by
   * `SpeechResume` (they went on) or `SpeechEnd` (the silence lasted). A server may start
   * answering here and hold the answer until `SpeechEnd` (preemptive answers).
   */
  SpeechPause: [event: VADSpeechEvent]
  /** After a `SpeechPause`, speech went on before `SpeechEnd`. `atMs`: where it came back. */
  SpeechResume: [event: VADSpeechEvent]
  /** The VAD cannot go on (its model failed to load or to run); it emits nothing after it. */
  Failed: [error: unknown]
}

/**
 * Voice activity detection on the server, for audio that comes without a client VAD (a phone
 * call, a device that streams its microphone): PCM16 16 kHz mono in, speech start and end out.
 *
 * One instance follows one call's audio; a VAD whose model loads asynchronously loads it once per
 * process and keeps the audio it is given meanwhile, so that nothing of a call's first words is
 * lost. Events come in the order of the audio, each `SpeechStart` followed by one `SpeechEnd`
 * (unless the VAD is reset or destroyed first); between the two, a VAD that reports pauses
 * emits `SpeechPause` and `SpeechResume` in turn (a pause still open at `SpeechEnd` ends with it).
 */
export abstract class VAD extends EventEmitter<VADEvents> {
  logger?: Logger

  /** Feeds audio (PCM16 16 kHz mono, any length; an odd byte is kept for the next call). */
  abstract process(audio: Buffer): void

  /** Forgets the speech in progress (no `SpeechEnd` for it); the audio position goes on. */
  abstract reset(): void

  /** Releases what the VAD holds; nothing is emitted after it. */
  destroy(): void {
    this.removeAllListeners()
  }

  protected log(...message: unknown[]) {
    this.logger?.log(...message)
  }
}
