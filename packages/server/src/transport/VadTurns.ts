import type { VAD, VADSpeechEvent } from '@openmic/core'
import { MICDROP_AUDIO_FORMAT } from '@openmic/core/protocol'
import type { CallInput } from './CallServer.js'

/** Audio sent to the STT from before the VAD's start of speech: the first syllable's onset. */
const PRE_ROLL_MS = 200
/** Audio kept for the next utterance's start: a VAD's minimum speech, its lag, and the pre-roll. */
const KEPT_MS = 2000
const BYTES_PER_MS = MICDROP_AUDIO_FORMAT.bytesPerMs

export interface VadTurnsOptions {
  /** Called just before a `StartSpeaking`: the transport reports (and stops) its playback. */
  beforeStartSpeaking?: () => void
  /** User audio sent into an utterance (the server's `UserAudio` event). */
  onUserAudio?: (audio: Buffer) => void
  log?: (...message: unknown[]) => void
}

/**
 * User turns from a server-side {@link VAD}, for audio that comes without `StartSpeaking` and
 * `StopSpeaking` (a phone line, a device): all of it goes to the VAD, and from where it heard
 * speech begin (less a short pre-roll) to where it heard it end, to the call as one utterance.
 * The VAD may answer late (a model runs asynchronously): the recent audio is kept, so the
 * utterance still starts where the speech did. Each byte of audio goes to the call at most once.
 */
export class VadTurns {
  /** Recent audio, oldest first, and the position (ms) of its first byte. */
  private recent: Buffer[] = []
  private recentStartMs = 0
  private recentBytes = 0
  private fedMs = 0
  private speaking = false
  /**
   * The call ended the utterance at a pause (it answers at pauses): where, in the audio fed (ms).
   * The pause's audio is not sent; the next utterance starts at the speech that comes back.
   */
  private pausedAtMs?: number
  private failed = false

  constructor(
    private readonly vad: VAD,
    private readonly input: CallInput,
    private readonly options: VadTurnsOptions = {}
  ) {
    vad.on('SpeechStart', this.onSpeechStart)
    vad.on('SpeechEnd', this.onSpeechEnd)
    vad.on('SpeechPause', this.onSpeechPause)
    vad.on('SpeechResume', this.onSpeechResume)
    vad.on('Failed', this.onFailed)
  }

  /** The user is speaking, as the VAD heard it. */
  get isSpeaking(): boolean {
    return this.speaking
  }

  /**
   * The transport ended the open utterance itself (the user muted): the rest of this speech,
   * and its end, are not a turn. The VAD hears the next speech after it as usual.
   */
  muted(): void {
    this.speaking = false
    this.pausedAtMs = undefined
  }

  /** User audio, PCM16 16 kHz mono, in the order it was captured. */
  audio(audio: Buffer): void {
    if (audio.length === 0) return
    this.keep(audio)
    if (this.speaking && this.pausedAtMs === undefined) this.send(audio)
    if (this.failed) return
    try {
      this.vad.process(audio)
    } catch (error) {
      this.onFailed(error)
    }
  }

  destroy(): void {
    this.vad.off('SpeechStart', this.onSpeechStart)
    this.vad.off('SpeechEnd', this.onSpeechEnd)
    this.vad.off('SpeechPause', this.onSpeechPause)
    this.vad.off('SpeechResume', this.onSpeechResume)
    this.vad.off('Failed', this.onFailed)
    try {
      this.vad.destroy()
    } catch (error) {
      this.options.log?.('VAD destroy() threw:', error)
    }
    this.recent = []
  }

  private readonly onSpeechStart = ({ atMs }: VADSpeechEvent) => {
    if (this.speaking) return
    this.options.beforeStartSpeaking?.()
    this.speaking = true
    this.pausedAtMs = undefined
    this.input.startSpeaking()
    // What was captured since the speech began (and a little before) opens the utterance
    this.send(this.since(atMs - PRE_ROLL_MS))
  }

  private readonly onSpeechEnd = () => {
    if (!this.speaking) return
    this.speaking = false
    this.pausedAtMs = undefined
    this.input.stopSpeaking()
  }

  /**
   * A call that answers at pauses ends the utterance here: all the audio fed so far is in it.
   * Any other keeps it open, and the audio goes on into it as if there were no pause.
   */
  private readonly onSpeechPause = () => {
    if (!this.speaking || this.pausedAtMs !== undefined) return
    if (this.input.pauseSpeaking()) this.pausedAtMs = this.fedMs
  }

  /**
   * The user went on after a pause that ended the utterance: the new one starts where the speech
   * came back, less the pre-roll, but never before the audio the last one had.
   */
  private readonly onSpeechResume = ({ atMs }: VADSpeechEvent) => {
    const pausedAtMs = this.pausedAtMs
    if (!this.speaking || pausedAtMs === undefined) return
    this.pausedAtMs = undefined
    this.input.resumeSpeaking()
    this.send(this.since(Math.max(atMs - PRE_ROLL_MS, pausedAtMs)))
  }

  /** A VAD that fails hears nothing more: an utterance it opened ends, the call goes on. */
  private readonly onFailed = (error: unknown) => {
    if (this.failed) return
    this.failed = true
    this.options.log?.('VAD failed, no more user turns are heard:', error)
    this.onSpeechEnd()
  }

  private send(audio: Buffer) {
    if (audio.length > 0 && this.input.userAudio(audio)) this.options.onUserAudio?.(audio)
  }

  private keep(audio: Buffer) {
    this.recent.push(audio)
    this.recentBytes += audio.length
    this.fedMs += audio.length / BYTES_PER_MS
    while (this.recentBytes - this.recent[0]!.length >= KEPT_MS * BYTES_PER_MS) {
      const dropped = this.recent.shift()!
      this.recentBytes -= dropped.length
      this.recentStartMs += dropped.length / BYTES_PER_MS
    }
  }

  /** The kept audio from position `fromMs` on (whole samples). */
  private since(fromMs: number): Buffer {
    const all = Buffer.concat(this.recent)
    const skip = Math.max(0, Math.round((fromMs - this.recentStartMs) * 16)) * 2
    return all.subarray(Math.min(skip, all.length))
  }
}
