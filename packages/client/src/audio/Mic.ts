import { EventEmitter } from 'eventemitter3'
import { errorFromMic } from '../client/MicdropClientError.js'
import { listDevices } from '../devices/list-devices.js'
import { CAPTURE_PROCESSOR_NAME, createCaptureWorkletUrl } from './capture-worklet.js'
import type { CaptureFrameMessage, CaptureProcessorOptions } from './capture-worklet.js'
import { msToSamples, SILENCE_DB, WIRE_SAMPLE_RATE } from './pcm.js'
import type { MicdropDevice, MicEvents, MicSource } from './types.js'

/** Length of the frames the microphone emits, in ms. */
export const MIC_FRAME_MS = 20

/** Audio processing asked of the browser (all on by default: echo cancellation allows barge-in). */
export interface MicConstraints {
  echoCancellation?: boolean
  noiseSuppression?: boolean
  autoGainControl?: boolean
}

/**
 * The microphone: `getUserMedia`, then an AudioWorklet that resamples to 16 kHz PCM16 and emits
 * `Frame` (20 ms) and `Volume` (dBFS) events. Nothing touches the browser before `start()`.
 */
export class Mic extends EventEmitter<MicEvents> implements MicSource {
  stream?: MediaStream
  audioContext?: AudioContext
  /** The device in use, once started. */
  deviceId?: string
  /** Last level, in dBFS (-100 = silence, 0 = full scale). */
  volume = SILENCE_DB

  private node?: AudioWorkletNode
  private source?: MediaStreamAudioSourceNode
  private watchingDevices = false

  get isStarted(): boolean {
    return !!this.node
  }

  /** Whether the browser applies echo cancellation to the running track (undefined when unknown). */
  get echoCancellation(): boolean | undefined {
    return this.stream?.getAudioTracks()[0]?.getSettings().echoCancellation
  }

  /**
   * Opens the microphone (`deviceId`, or the default one) and starts emitting frames. Rejects
   * with a `MicdropClientError` (`MicPermissionDenied`, `MicNotFound` or `Mic`).
   */
  async start(deviceId?: string, constraints: MicConstraints = {}): Promise<void> {
    await this.stop()
    try {
      if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
        throw new Error('getUserMedia is not available (a secure context is needed)')
      }
      const audio: MediaTrackConstraints = {
        channelCount: 1,
        echoCancellation: constraints.echoCancellation ?? true,
        noiseSuppression: constraints.noiseSuppression ?? true,
        autoGainControl: constraints.autoGainControl ?? true,
      }
      if (deviceId) audio.deviceId = { exact: deviceId }
      this.stream = await navigator.mediaDevices.getUserMedia({ audio })
      this.deviceId = this.stream.getAudioTracks()[0]?.getSettings().deviceId ?? deviceId
      this.audioContext = new AudioContext()
      const url = createCaptureWorkletUrl()
      try {
        await this.audioContext.audioWorklet.addModule(url)
      } finally {
        URL.revokeObjectURL(url)
      }
      const processorOptions: CaptureProcessorOptions = {
        targetRate: WIRE_SAMPLE_RATE,
        frameSamples: msToSamples(MIC_FRAME_MS),
      }
      this.source = this.audioContext.createMediaStreamSource(this.stream)
      const node = new AudioWorkletNode(this.audioContext, CAPTURE_PROCESSOR_NAME, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        processorOptions,
      })
      node.port.onmessage = (event: MessageEvent<CaptureFrameMessage>) => {
        const { pcm, volume } = event.data
        this.volume = volume
        this.emit('Frame', pcm, volume)
        this.emit('Volume', volume)
      }
      this.source.connect(node)
      this.node = node
      if (this.audioContext.state === 'suspended') await this.audioContext.resume()
      this.watchDevices()
    } catch (error) {
      await this.stop()
      throw errorFromMic(error)
    }
  }

  /** Releases the microphone. */
  async stop(): Promise<void> {
    if (this.node) this.node.port.onmessage = null
    this.source?.disconnect()
    this.node = undefined
    this.source = undefined
    this.stream?.getTracks().forEach((track) => track.stop())
    this.stream = undefined
    const context = this.audioContext
    this.audioContext = undefined
    if (context && context.state !== 'closed') await context.close()
    this.volume = SILENCE_DB
  }

  /** Audio inputs (labels appear once the microphone was allowed). */
  getDevices(): Promise<MicdropDevice[]> {
    return listDevices('audioinput')
  }

  private watchDevices() {
    if (this.watchingDevices || !navigator.mediaDevices?.addEventListener) return
    this.watchingDevices = true
    navigator.mediaDevices.addEventListener('devicechange', () => this.emit('DeviceChange'))
  }
}
