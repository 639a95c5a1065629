import { EventEmitter } from 'eventemitter3'
import { listDevices } from '../devices/list-devices.js'
import { pcm16ToFloat, rmsToDb, SILENCE_DB, WIRE_SAMPLE_RATE } from './pcm.js'
import { PlaybackScheduler } from './playback-scheduler.js'
import type { MicdropDevice } from './types.js'

export interface SpeakerEvents {
  /** Assistant audio started playing. */
  StartPlaying: []
  /** Everything received was played, or playback was stopped (a pause is not a stop). */
  StopPlaying: []
}

/**
 * Plays the assistant's PCM16 16 kHz audio gaplessly, with a small prebuffer, and stops it at
 * once on barge-in. Nothing touches the browser before `start()` (or the first chunk).
 */
export class Speaker extends EventEmitter<SpeakerEvents> {
  audioContext?: AudioContext
  /** The output device chosen with {@link Speaker.changeDevice}, if any. */
  deviceId?: string

  private output?: GainNode
  private analyser?: AnalyserNode
  private readonly scheduler: PlaybackScheduler
  private sources = new Set<AudioBufferSourceNode>()
  private samples?: Float32Array<ArrayBuffer>
  private paused = false
  /** The last chunk ended while pausing (the context suspends asynchronously): tell it on resume. */
  private endedWhilePaused = false
  /** Audio queued while paused, after silence: its start is told on resume. */
  private startedWhilePaused = false

  /** @param prebufferMs - Delay before the first chunk after silence plays (absorbs jitter). */
  constructor(prebufferMs = 60) {
    super()
    this.scheduler = new PlaybackScheduler(prebufferMs)
  }

  /** Audio is playing: queued, and not paused. */
  get isPlaying(): boolean {
    return this.sources.size > 0 && !this.paused
  }

  /** Playback is paused with audio queued ({@link Speaker.pauseAudio}). */
  get isPaused(): boolean {
    return this.paused
  }

  /** Audio queued and not played yet, in ms (all of it while paused). */
  get queuedMs(): number {
    if (this.sources.size === 0 || !this.audioContext) return 0
    return Math.max(0, (this.scheduler.endTime - this.audioContext.currentTime) * 1000)
  }

  /** Creates the audio context (call it from a user gesture so that autoplay is allowed). */
  async start(): Promise<void> {
    const context = this.ensureContext()
    if (context.state === 'suspended') await context.resume()
  }

  /** Queues a chunk of PCM16 16 kHz mono audio. */
  playAudio(pcm: Int16Array): void {
    if (pcm.length === 0) return
    const context = this.ensureContext()
    const buffer = context.createBuffer(1, pcm.length, WIRE_SAMPLE_RATE)
    buffer.copyToChannel(pcm16ToFloat(pcm) as Float32Array<ArrayBuffer>, 0)
    const source = context.createBufferSource()
    source.buffer = buffer
    source.connect(this.output!)
    source.onended = () => {
      source.disconnect()
      this.sources.delete(source)
      if (this.sources.size > 0) return
      if (this.paused) this.endedWhilePaused = true
      else this.emit('StopPlaying')
    }
    const wasPlaying = this.sources.size > 0
    this.sources.add(source)
    source.start(this.scheduler.schedule(context.currentTime, buffer.duration))
    if (wasPlaying) return
    if (this.paused) this.startedWhilePaused = true
    else this.emit('StartPlaying')
  }

  /**
   * Pauses playback where it is, keeping what is queued; audio received meanwhile queues behind
   * it. {@link Speaker.resumeAudio} plays on; {@link Speaker.stopAudio} drops it all.
   */
  pauseAudio(): void {
    if (this.paused) return
    this.paused = true
    // Suspending the context stops its clock: every scheduled chunk waits, in place. Not a stop:
    // no `StopPlaying`, the audio is still to be played (or dropped with stopAudio())
    void this.audioContext?.suspend()
  }

  /** Plays on from where {@link Speaker.pauseAudio} paused. */
  resumeAudio(): void {
    if (!this.paused) return
    this.paused = false
    void this.audioContext?.resume()
    if (this.endedWhilePaused && this.sources.size === 0) this.emit('StopPlaying')
    if (this.startedWhilePaused && this.sources.size > 0) this.emit('StartPlaying')
    this.endedWhilePaused = false
    this.startedWhilePaused = false
  }

  /** Stops all audio now and drops what is queued (barge-in, pause, hang-up). */
  stopAudio(): void {
    if (this.paused) {
      this.paused = false
      void this.audioContext?.resume()
      if (this.endedWhilePaused && this.sources.size === 0) this.emit('StopPlaying')
    }
    this.endedWhilePaused = false
    this.startedWhilePaused = false
    if (this.sources.size === 0) return
    for (const source of this.sources) {
      source.onended = null
      try {
        source.stop()
      } catch {
        // Not started yet in some browsers: disconnecting is enough
      }
      source.disconnect()
    }
    this.sources.clear()
    this.scheduler.reset()
    this.emit('StopPlaying')
  }

  /**
   * Level of what comes out of the speaker now (the last ~10 ms), in dBFS (-100 = silence,
   * 0 = full scale). It reads the audio graph, so it drops to silence only once playback really
   * stopped.
   */
  getVolume(): number {
    // A suspended graph keeps its last samples: paused, nothing comes out
    if (!this.analyser || this.paused) return SILENCE_DB
    const samples = (this.samples ??= new Float32Array(this.analyser.fftSize))
    this.analyser.getFloatTimeDomainData(samples)
    let sum = 0
    for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!
    return rmsToDb(Math.sqrt(sum / samples.length))
  }

  /** Plays to another output device (where the browser supports `AudioContext.setSinkId`). */
  async changeDevice(deviceId: string): Promise<void> {
    this.deviceId = deviceId
    const context = this.audioContext as (AudioContext & SinkSelectable) | undefined
    if (context?.setSinkId) await context.setSinkId(deviceId)
  }

  /** Audio outputs. */
  getDevices(): Promise<MicdropDevice[]> {
    return listDevices('audiooutput')
  }

  /** Stops playback and closes the audio context. */
  async close(): Promise<void> {
    this.stopAudio()
    const context = this.audioContext
    this.audioContext = undefined
    this.output = undefined
    this.analyser = undefined
    if (context && context.state !== 'closed') await context.close()
  }

  private ensureContext(): AudioContext {
    if (this.audioContext) return this.audioContext
    const context = new AudioContext() as AudioContext & SinkSelectable
    this.output = context.createGain()
    this.analyser = context.createAnalyser()
    this.analyser.fftSize = 512
    this.output.connect(this.analyser)
    this.analyser.connect(context.destination)
    if (this.deviceId && context.setSinkId) {
      context.setSinkId(this.deviceId).catch(() => {
        this.deviceId = undefined
      })
    }
    this.audioContext = context
    return context
  }
}

interface SinkSelectable {
  setSinkId?: (deviceId: string) => Promise<void>
}
