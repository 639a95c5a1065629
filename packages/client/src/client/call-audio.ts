import { EventEmitter } from 'eventemitter3'
import type { MicConstraints } from '../audio/Mic.js'
import { MicRecorder } from '../audio/MicRecorder.js'
import type { MicdropDevice } from '../audio/types.js'
import { MicdropStorageKeys } from '../devices/storage.js'
import type { MicdropStorage } from '../devices/storage.js'
import type { VADConfig } from '../vad/get-vad.js'
import type { MicdropMic, MicdropSpeaker } from './types.js'

export interface CallAudioEvents {
  /** Confirmed speech started; chunks follow. */
  StartSpeaking: []
  /** A chunk of the utterance (PCM16 mono 16 kHz). */
  Chunk: [Int16Array]
  /** The speech paused (with `reportPauses(true)`); `ResumeSpeaking` or `StopSpeaking` follows. */
  PauseSpeaking: []
  /** The speech went on after a pause; chunks follow. */
  ResumeSpeaking: []
  /** The utterance ended (its last chunk was emitted just before). */
  StopSpeaking: []
  /** Something shown to the user changed: the recorder's state or the device lists. */
  Change: []
}

/**
 * The audio side of a call: the microphone and the recorder that turns it into utterances (with
 * its VAD), the speaker, and the devices, remembered across visits. It never listens by itself:
 * the call says when the VAD may hear ({@link CallAudio.listen}).
 */
export class CallAudio extends EventEmitter<CallAudioEvents> {
  /** The recorder of the open microphone. */
  recorder?: MicRecorder
  micDevices: MicdropDevice[] = []
  speakerDevices: MicdropDevice[] = []
  private reportsPauses = false

  constructor(
    readonly mic: MicdropMic,
    readonly speaker: MicdropSpeaker,
    private readonly storage: MicdropStorage,
    private readonly log: (...args: unknown[]) => void = () => {}
  ) {
    super()
    mic.on('DeviceChange', this.updateDevices)
  }

  get isMicStarted(): boolean {
    return this.mic.isStarted && (this.recorder?.state.isStarted ?? false)
  }

  get isUserSpeaking(): boolean {
    return this.recorder?.state.isSpeaking ?? false
  }

  /**
   * Opens the speaker and the remembered microphone (the default one if it is gone) with a new
   * recorder using `vad`. The VAD stays deaf until `listen(true)`.
   */
  async open(vad: VADConfig | undefined, constraints: MicConstraints | undefined): Promise<void> {
    await this.closeRecorder()
    const recorder = new MicRecorder(vad)
    this.recorder = recorder
    recorder.on('StateChange', () => this.emit('Change'))
    recorder.on('StartSpeaking', () => this.emit('StartSpeaking'))
    recorder.on('Chunk', (chunk) => this.emit('Chunk', chunk))
    recorder.on('PauseSpeaking', () => this.emit('PauseSpeaking'))
    recorder.on('ResumeSpeaking', () => this.emit('ResumeSpeaking'))
    recorder.on('StopSpeaking', () => this.emit('StopSpeaking'))
    recorder.reportsPauses = this.reportsPauses
    recorder.vad.pause()
    // The speaker first, while the click that started the call still allows audio (the
    // microphone's permission prompt can outlast it)
    const savedSpeaker = this.storage.getItem(MicdropStorageKeys.SpeakerDevice)
    if (savedSpeaker) await this.speaker.changeDevice(savedSpeaker).catch(() => {})
    await this.speaker.start()
    const savedMic = this.storage.getItem(MicdropStorageKeys.MicDevice) ?? undefined
    try {
      await this.mic.start(savedMic, constraints)
    } catch (error) {
      if (!savedMic) throw error
      this.log('Remembered microphone unavailable, using the default one', error)
      this.storage.removeItem(MicdropStorageKeys.MicDevice)
      await this.mic.start(undefined, constraints)
    }
    await recorder.start(this.mic)
    // Device labels are only listed once the microphone is allowed
    await this.updateDevices().catch((error) => this.log('Device list failed', error))
  }

  /** Stops playback and releases the microphone. */
  async close(): Promise<void> {
    this.speaker.stopAudio()
    await this.closeRecorder()
    await this.mic.stop()
  }

  /** Lets the VAD hear the microphone, or stops it (an utterance in progress ends). */
  listen(on: boolean): void {
    if (on) this.recorder?.vad.resume()
    else this.recorder?.vad.pause()
  }

  /**
   * Whether the user's pauses are reported (`PauseSpeaking`, `ResumeSpeaking`: for a server that
   * answers at them) rather than sent as audio of the utterance.
   */
  reportPauses(on: boolean): void {
    this.reportsPauses = on
    if (this.recorder) this.recorder.reportsPauses = on
  }

  /** Remembers the microphone to open next. */
  rememberMicDevice(deviceId: string): void {
    this.storage.setItem(MicdropStorageKeys.MicDevice, deviceId)
  }

  /** Switches to another microphone if one is open, and remembers it. */
  async changeMicDevice(deviceId: string, constraints: MicConstraints | undefined): Promise<void> {
    this.rememberMicDevice(deviceId)
    const recorder = this.recorder
    if (!recorder) return
    await recorder.stop()
    await this.mic.start(deviceId, constraints)
    await recorder.start(this.mic)
    await this.updateDevices()
  }

  /** Switches the output, and remembers it. */
  async changeSpeakerDevice(deviceId: string): Promise<void> {
    this.storage.setItem(MicdropStorageKeys.SpeakerDevice, deviceId)
    await this.speaker.changeDevice(deviceId)
  }

  /** Refreshes `micDevices` and `speakerDevices`. */
  updateDevices = async (): Promise<void> => {
    const [micDevices, speakerDevices] = await Promise.all([
      this.mic.getDevices(),
      this.speaker.getDevices(),
    ])
    this.micDevices = micDevices
    this.speakerDevices = speakerDevices
    this.emit('Change')
  }

  private async closeRecorder() {
    const recorder = this.recorder
    if (!recorder) return
    this.recorder = undefined
    await recorder.stop()
    recorder.removeAllListeners()
  }
}
