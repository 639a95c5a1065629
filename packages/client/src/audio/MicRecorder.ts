import { EventEmitter } from 'eventemitter3'
import { getVAD } from '../vad/get-vad.js'
import type { VADConfig } from '../vad/get-vad.js'
import type { VAD } from '../vad/VAD.js'
import { Pcm16Chunker } from './chunker.js'
import { msToSamples } from './pcm.js'
import { PreRoll } from './pre-roll.js'
import type { MicSource } from './types.js'

/** Length of the chunks sent to the server, in ms. */
export const CHUNK_MS = 100
/** Audio kept before the VAD's `StartSpeaking`, on top of its `delay`, in ms. */
export const PRE_ROLL_MARGIN_MS = 100
/** Longest wait for a confirmation: older unconfirmed audio is dropped, in ms. */
export const MAX_UNCONFIRMED_MS = 1500

export interface MicRecorderState {
  isStarting: boolean
  isStarted: boolean
  /** The VAD confirmed speech and the utterance is being sent. */
  isSpeaking: boolean
}

export interface MicRecorderEvents {
  /** Confirmed speech started: tell the server (`StartSpeaking`), chunks follow. */
  StartSpeaking: []
  /** A chunk of the utterance: PCM16 mono 16 kHz, {@link CHUNK_MS} long except the last one. */
  Chunk: [Int16Array]
  /**
   * With {@link MicRecorder.reportsPauses}: the speech paused (the audio before the pause went
   * out just before, the pause's is held); `ResumeSpeaking` or `StopSpeaking` follows.
   */
  PauseSpeaking: []
  /** After `PauseSpeaking`, the speech went on: chunks follow, from a little before it came back. */
  ResumeSpeaking: []
  /** The utterance ended; its last (partial) chunk was emitted just before. */
  StopSpeaking: []
  StateChange: [MicRecorderState]
}

/**
 * Turns microphone frames into utterances for the server. Audio flows only while the VAD hears
 * speech: on the VAD's `StartSpeaking` it starts buffering from the pre-roll (the audio just
 * before, so the first syllable is kept); on `ConfirmSpeaking` it emits `StartSpeaking` and the
 * buffered audio as chunks, then chunks as they fill; on `StopSpeaking` it emits the last partial
 * chunk, then `StopSpeaking`. A cancelled start (noise) sends nothing.
 *
 * With `reportsPauses`, a pause the VAD hears inside the utterance is reported (for a server that
 * answers at pauses, which ends the utterance's transcription there): the audio so far goes out,
 * then `PauseSpeaking`; the pause's audio is held; if the speech goes on, `ResumeSpeaking` and the
 * held audio's last part (the pre-roll: the onset of the speech that came back) go out, then chunks
 * as usual; if it does not, `StopSpeaking`. Without it, pauses are part of the utterance.
 */
export class MicRecorder extends EventEmitter<MicRecorderEvents> {
  state: MicRecorderState = { isStarting: false, isStarted: false, isSpeaking: false }
  vad: VAD
  /** Report the user's pauses (`PauseSpeaking`, `ResumeSpeaking`) instead of sending them as audio. */
  reportsPauses = false

  private mic?: MicSource
  private readonly chunker = new Pcm16Chunker(msToSamples(CHUNK_MS))
  private readonly preRoll: PreRoll
  private unconfirmed?: PreRoll
  private confirmed = false
  /** The audio of the pause in progress (its most recent pre-roll's worth), not sent. */
  private pausedAudio?: PreRoll

  constructor(vad: VADConfig = 'volume') {
    super()
    this.vad = getVAD(vad)
    this.preRoll = new PreRoll(msToSamples(this.vad.delay + PRE_ROLL_MARGIN_MS))
  }

  /** Starts listening to `mic` (its frames first, then the VAD, so the pre-roll holds each frame the VAD reacts to). */
  async start(mic: MicSource): Promise<void> {
    if (this.mic) return
    this.setState({ isStarting: true })
    this.mic = mic
    mic.on('Frame', this.onFrame)
    this.vad.on('StartSpeaking', this.onVadStart)
    this.vad.on('ConfirmSpeaking', this.onVadConfirm)
    this.vad.on('CancelSpeaking', this.onVadCancel)
    this.vad.on('StopSpeaking', this.onVadStop)
    this.vad.on('PauseSpeaking', this.onVadPause)
    this.vad.on('ResumeSpeaking', this.onVadResume)
    try {
      await this.vad.start(mic)
    } catch (error) {
      await this.stop()
      throw error
    }
    this.setState({ isStarting: false, isStarted: true })
  }

  /** Stops listening; an utterance in progress ends with its last chunk and `StopSpeaking`. */
  async stop(): Promise<void> {
    const mic = this.mic
    this.mic = undefined
    mic?.off('Frame', this.onFrame)
    await this.vad.stop()
    this.vad.off('StartSpeaking', this.onVadStart)
    this.vad.off('ConfirmSpeaking', this.onVadConfirm)
    this.vad.off('CancelSpeaking', this.onVadCancel)
    this.vad.off('StopSpeaking', this.onVadStop)
    this.vad.off('PauseSpeaking', this.onVadPause)
    this.vad.off('ResumeSpeaking', this.onVadResume)
    this.resetUtterance()
    this.preRoll.clear()
    this.setState({ isStarting: false, isStarted: false, isSpeaking: false })
  }

  private onFrame = (pcm: Int16Array) => {
    this.preRoll.push(pcm)
    if (this.pausedAudio) this.pausedAudio.push(pcm)
    else if (this.confirmed) this.emitChunks(this.chunker.push(pcm))
    else this.unconfirmed?.push(pcm)
  }

  private onVadStart = () => {
    // The pre-roll already holds the frame the VAD reacted to
    this.unconfirmed = new PreRoll(msToSamples(MAX_UNCONFIRMED_MS))
    this.unconfirmed.push(this.preRoll.read())
  }

  private onVadConfirm = () => {
    const buffered = this.unconfirmed?.read() ?? this.preRoll.read()
    this.unconfirmed = undefined
    this.confirmed = true
    this.setState({ isSpeaking: true })
    this.emit('StartSpeaking')
    this.emitChunks(this.chunker.push(buffered))
  }

  private onVadCancel = () => {
    this.resetUtterance()
  }

  private onVadPause = () => {
    if (!this.confirmed || !this.reportsPauses || this.pausedAudio) return
    // What was said before the pause is complete on the server before it hears of the pause
    const last = this.chunker.flush()
    if (last) this.emit('Chunk', last)
    this.pausedAudio = new PreRoll(msToSamples(this.vad.delay + PRE_ROLL_MARGIN_MS))
    this.emit('PauseSpeaking')
  }

  private onVadResume = () => {
    const held = this.pausedAudio
    if (!held) return
    this.pausedAudio = undefined
    this.emit('ResumeSpeaking')
    // It already holds the frame the VAD reacted to
    this.emitChunks(this.chunker.push(held.read()))
  }

  private onVadStop = () => {
    if (!this.confirmed) return this.resetUtterance()
    const last = this.chunker.flush()
    if (last) this.emit('Chunk', last)
    this.resetUtterance()
    this.setState({ isSpeaking: false })
    this.emit('StopSpeaking')
  }

  private emitChunks(chunks: Int16Array[]) {
    for (const chunk of chunks) this.emit('Chunk', chunk)
  }

  private resetUtterance() {
    this.unconfirmed = undefined
    this.pausedAudio = undefined
    this.confirmed = false
    this.chunker.reset()
  }

  private setState(state: Partial<MicRecorderState>) {
    const next = { ...this.state, ...state }
    if (
      next.isStarting === this.state.isStarting &&
      next.isStarted === this.state.isStarted &&
      next.isSpeaking === this.state.isSpeaking
    )
      return
    this.state = next
    this.emit('StateChange', next)
  }
}
