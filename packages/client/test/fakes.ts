import { EventEmitter } from 'eventemitter3'
import type { MicEvents } from '../src/audio/types.js'
import type { SpeakerEvents } from '../src/audio/Speaker.js'
import type { MicdropMic, MicdropSpeaker, MicdropWebSocket } from '../src/client/types.js'
import type { MicdropStorage } from '../src/devices/storage.js'
import type { VAD } from '../src/vad/VAD.js'

/** A microphone that emits the frames a test gives it. */
export class FakeMic extends EventEmitter<MicEvents> implements MicdropMic {
  isStarted = false
  deviceId?: string
  volume = -100
  startCalls: Array<string | undefined> = []
  failWith?: unknown

  async start(deviceId?: string): Promise<void> {
    this.startCalls.push(deviceId)
    if (this.failWith) throw this.failWith
    this.isStarted = true
    this.deviceId = deviceId ?? 'default'
  }
  async stop(): Promise<void> {
    this.isStarted = false
  }
  async getDevices() {
    return [{ deviceId: 'default', label: 'Default mic' }]
  }
  /** Emits `count` 20 ms frames at `volume` dBFS, samples numbered from `start`. */
  frames(count: number, volume: number, start = 0): void {
    for (let i = 0; i < count; i++) {
      const pcm = new Int16Array(320).map((_, j) => (start + i * 320 + j) % 32768)
      this.volume = volume
      this.emit('Frame', pcm, volume)
      this.emit('Volume', volume)
    }
  }
}

/**
 * A speaker that records what it is asked to play, and plays it only as the test says
 * ({@link FakeSpeaker.elapse}, {@link FakeSpeaker.finish}): nothing here runs on a clock.
 */
export class FakeSpeaker extends EventEmitter<SpeakerEvents> implements MicdropSpeaker {
  played: Int16Array[] = []
  deviceId?: string
  stops = 0
  isPaused = false
  /** Audio queued and not played yet (ms): what `playAudio` got, less what `elapse` played. A test may set it. */
  queuedMs = 0
  private hasAudio = false
  async start() {}
  /** As the real speaker: audio is queued and not paused. */
  get isPlaying() {
    return this.hasAudio && !this.isPaused
  }
  playAudio(pcm: Int16Array) {
    this.played.push(pcm)
    this.queuedMs += pcm.length / 16
    if (this.hasAudio) return
    this.hasAudio = true
    if (!this.isPaused) this.emit('StartPlaying')
  }
  stopAudio() {
    this.stops++
    this.isPaused = false
    this.queuedMs = 0
    if (!this.hasAudio) return
    this.hasAudio = false
    this.emit('StopPlaying')
  }
  pauseAudio() {
    this.isPaused = true
  }
  resumeAudio() {
    this.isPaused = false
  }
  /** Plays `ms` of what is queued (nothing while paused); `StopPlaying` once it is all played. */
  elapse(ms: number) {
    if (this.isPaused || !this.hasAudio) return
    this.queuedMs = Math.max(0, this.queuedMs - ms)
    if (this.queuedMs === 0) this.finish()
  }
  /** Playback of everything queued ended. */
  finish() {
    this.queuedMs = 0
    if (!this.hasAudio) return
    this.hasAudio = false
    this.emit('StopPlaying')
  }
  getVolume() {
    return this.isPlaying ? -20 : -100
  }
  async changeDevice(deviceId: string) {
    this.deviceId = deviceId
  }
  async getDevices() {
    return [{ deviceId: 'default', label: 'Default speaker' }]
  }
}

/** A WebSocket the test opens, feeds and closes by hand. */
export class FakeWebSocket implements MicdropWebSocket {
  readyState = 0
  binaryType = 'blob'
  sent: Array<string | ArrayBuffer> = []
  closedWith?: number
  onopen: ((event: any) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number; reason: string }) => void) | null = null
  onerror: ((event: any) => void) | null = null

  constructor(readonly url: string) {}

  /** Called with each frame the client sends (a fake server listens here). */
  onSend?: (data: string | ArrayBuffer) => void
  send(data: string | ArrayBuffer) {
    if (this.readyState !== 1) throw new Error('not open')
    this.sent.push(data)
    this.onSend?.(data)
  }
  close(code = 1000) {
    this.closedWith = code
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  receive(data: string | ArrayBuffer) {
    this.onmessage?.({ data })
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3
    this.onclose?.({ code, reason })
  }
  get texts(): string[] {
    return this.sent.filter((item): item is string => typeof item === 'string')
  }
  get binaries(): ArrayBuffer[] {
    return this.sent.filter((item): item is ArrayBuffer => typeof item !== 'string')
  }
}

export function memoryStorage(initial: Record<string, string> = {}): MicdropStorage & {
  data: Record<string, string>
} {
  const data = { ...initial }
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => void (data[key] = value),
    removeItem: (key) => void delete data[key],
  }
}

/** Records the names of a VAD's utterance events, in order. */
export function recordVadEvents(vad: VAD): string[] {
  const events: string[] = []
  for (const name of [
    'StartSpeaking',
    'ConfirmSpeaking',
    'CancelSpeaking',
    'PauseSpeaking',
    'ResumeSpeaking',
    'StopSpeaking',
  ] as const) {
    vad.on(name, () => events.push(name))
  }
  return events
}
