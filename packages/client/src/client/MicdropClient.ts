import { EventEmitter } from 'eventemitter3'
import { MicdropClientCommands, parseServerMessage } from '@openmic/core/protocol'
import type { MicdropConversation, MicdropConversationItem } from '@openmic/core/protocol'
import { Mic } from '../audio/Mic.js'
import { MicRecorder } from '../audio/MicRecorder.js'
import { arrayBufferToPcm16, pcm16ToArrayBuffer } from '../audio/pcm.js'
import { Speaker } from '../audio/Speaker.js'
import type { MicdropDevice } from '../audio/types.js'
import { MicdropStorageKeys, browserStorage } from '../devices/storage.js'
import {
  MicdropClientError,
  errorFromClose,
  errorFromMic,
  isRecoverableClose,
} from './MicdropClientError.js'
import { DEFAULT_RECONNECT_OPTIONS, reconnectDelayMs } from './reconnect.js'
import type {
  MicdropClientDeps,
  MicdropClientEvents,
  MicdropOptions,
  MicdropState,
  MicdropWebSocket,
} from './types.js'

const OPEN = 1
const CONNECTING = 0
/** Time the echo of the assistant lingers after playback, when interruption is disabled (ms). */
const ECHO_TAIL_MS = 300

/**
 * One voice call with a Micdrop-protocol server: microphone → VAD → server, server audio →
 * speaker, with the call state, barge-in, pause and mute, device selection and reconnection.
 * Constructing it touches no browser API; everything starts on `start()`.
 *
 * ```ts
 * const client = new MicdropClient()
 * client.on('StateChange', (state) => render(state))
 * await client.start({ url: 'wss://example.com/call', params: { token } })
 * ```
 */
export class MicdropClient extends EventEmitter<MicdropClientEvents> {
  options: MicdropOptions
  conversation: MicdropConversation = []
  error: MicdropClientError | undefined
  micDevices: MicdropDevice[] = []
  speakerDevices: MicdropDevice[] = []
  /** The recorder of the running call (created by `start()`). */
  micRecorder?: MicRecorder

  readonly mic: MicdropClientDeps['mic']
  readonly speaker: MicdropClientDeps['speaker']
  private readonly deps: MicdropClientDeps
  private ws?: MicdropWebSocket
  private startTime = 0
  private lastState?: MicdropState
  private starting = false
  private processing = false
  private paused = false
  private muted = false
  private reconnecting = false
  private reconnectAttempt = 0
  private reconnectTimer?: ReturnType<typeof setTimeout>
  private connectionTimer?: ReturnType<typeof setTimeout>
  private echoTimer?: ReturnType<typeof setTimeout>
  private pendingStart?: { resolve: () => void; reject: (error: MicdropClientError) => void }

  constructor(options: MicdropOptions = {}, deps: Partial<MicdropClientDeps> = {}) {
    super()
    this.options = options
    this.deps = {
      mic: deps.mic ?? new Mic(),
      speaker: deps.speaker ?? new Speaker(),
      createWebSocket: deps.createWebSocket ?? ((url) => new WebSocket(url) as MicdropWebSocket),
      storage: deps.storage ?? browserStorage,
      random: deps.random ?? Math.random,
    }
    this.mic = this.deps.mic
    this.speaker = this.deps.speaker
    this.speaker.on('StartPlaying', this.onSpeakerStart)
    this.speaker.on('StopPlaying', this.onSpeakerStop)
    this.mic.on('DeviceChange', this.updateDevices)
  }

  get isStarting(): boolean {
    return this.starting && !this.reconnecting
  }
  get isStarted(): boolean {
    return (this.ws?.readyState === OPEN || this.reconnecting) && this.isMicStarted
  }
  get isReconnecting(): boolean {
    return this.reconnecting
  }
  get isPaused(): boolean {
    return this.paused
  }
  get isMuted(): boolean {
    return this.muted
  }
  get isProcessing(): boolean {
    return this.processing && !this.paused
  }
  get isUserSpeaking(): boolean {
    return this.micRecorder?.state.isSpeaking ?? false
  }
  get isAssistantSpeaking(): boolean {
    return this.speaker.isPlaying
  }
  get isMicStarted(): boolean {
    return this.mic.isStarted && (this.micRecorder?.state.isStarted ?? false)
  }
  get isListening(): boolean {
    return (
      this.isStarted &&
      !this.paused &&
      !this.muted &&
      !this.isProcessing &&
      !this.isUserSpeaking &&
      !this.isAssistantSpeaking
    )
  }
  get micDeviceId(): string | undefined {
    return this.mic.deviceId
  }
  get speakerDeviceId(): string | undefined {
    return this.speaker.deviceId
  }

  /** The current state (a new object each time). */
  get state(): MicdropState {
    return {
      isStarting: this.isStarting,
      isStarted: this.isStarted,
      isReconnecting: this.isReconnecting,
      isPaused: this.isPaused,
      isMuted: this.isMuted,
      isListening: this.isListening,
      isProcessing: this.isProcessing,
      isUserSpeaking: this.isUserSpeaking,
      isAssistantSpeaking: this.isAssistantSpeaking,
      isMicStarted: this.isMicStarted,
      micDeviceId: this.micDeviceId,
      speakerDeviceId: this.speakerDeviceId,
      micDevices: this.micDevices,
      speakerDevices: this.speakerDevices,
      conversation: this.conversation,
      error: this.error,
    }
  }

  /**
   * Starts a call: opens the microphone (the chosen device, remembered across visits) and the
   * speaker, then connects. Resolves once connected; rejects with a {@link MicdropClientError}
   * (also emitted as `Error`) when the microphone or the connection fails for good.
   */
  start = async (options: MicdropOptions = {}): Promise<void> => {
    await this.stop()
    this.options = { ...this.options, ...options }
    this.startTime = Date.now()
    this.conversation = []
    this.error = undefined
    this.processing = true
    this.starting = true
    this.notify()
    try {
      if (!this.options.url) throw new MicdropClientError('MissingUrl')
      await this.startMic()
    } catch (error) {
      const clientError = errorFromMic(error)
      this.setError(clientError)
      await this.stop()
      throw clientError
    }
    const connected = new Promise<void>((resolve, reject) => {
      this.pendingStart = { resolve, reject }
    })
    this.connect()
    await connected
  }

  /** Hangs up: closes the connection, stops playback and releases the microphone. */
  stop = async (): Promise<void> => {
    this.clearTimers()
    this.starting = false
    this.processing = false
    this.paused = false
    this.muted = false
    this.reconnecting = false
    this.reconnectAttempt = 0
    this.closeSocket(1000)
    this.speaker.stopAudio()
    const recorder = this.micRecorder
    this.micRecorder = undefined
    await recorder?.stop()
    recorder?.removeAllListeners()
    await this.mic.stop()
    this.settleStart()
    this.notify()
  }

  /** Pauses the call: stops listening and playback, and tells the server (`Mute`). */
  pause = (): void => {
    if (this.paused) return
    this.paused = true
    this.processing = false
    this.micRecorder?.vad.pause()
    this.speaker.stopAudio()
    this.send(MicdropClientCommands.Mute)
    this.notify()
  }

  /** Resumes a paused call. */
  resume = (): void => {
    if (!this.paused) return
    this.paused = false
    if (!this.muted && !this.interruptionBlocked) this.micRecorder?.vad.resume()
    this.notify()
  }

  /** Stops listening to the microphone (the assistant can still talk). */
  mute = (): void => {
    this.muted = true
    this.micRecorder?.vad.pause()
    this.notify()
  }

  unmute = (): void => {
    this.muted = false
    if (!this.paused && !this.interruptionBlocked) this.micRecorder?.vad.resume()
    this.notify()
  }

  /** Switches to another microphone (remembered for the next calls). */
  changeMicDevice = async (deviceId: string): Promise<void> => {
    this.deps.storage.setItem(MicdropStorageKeys.MicDevice, deviceId)
    if (!this.micRecorder) return this.notify()
    await this.micRecorder.stop()
    await this.mic.start(deviceId, this.options.mic)
    await this.micRecorder.start(this.mic)
    await this.updateDevices()
  }

  /** Switches to another output (remembered for the next calls). */
  changeSpeakerDevice = async (deviceId: string): Promise<void> => {
    this.deps.storage.setItem(MicdropStorageKeys.SpeakerDevice, deviceId)
    await this.speaker.changeDevice(deviceId)
    this.notify()
  }

  /** Refreshes `micDevices` and `speakerDevices`. */
  updateDevices = async (): Promise<void> => {
    const [micDevices, speakerDevices] = await Promise.all([
      this.mic.getDevices(),
      this.speaker.getDevices(),
    ])
    this.micDevices = micDevices
    this.speakerDevices = speakerDevices
    this.notify()
  }

  private get interruptionBlocked(): boolean {
    return !!this.options.disableInterruption && (this.speaker.isPlaying || !!this.echoTimer)
  }

  private async startMic() {
    const recorder = new MicRecorder(this.options.vad)
    this.micRecorder = recorder
    recorder.on('StateChange', () => this.notify())
    recorder.on('StartSpeaking', this.onUserStartSpeaking)
    recorder.on('Chunk', this.onUserChunk)
    recorder.on('StopSpeaking', this.onUserStopSpeaking)
    const storage = this.deps.storage
    const savedMic = storage.getItem(MicdropStorageKeys.MicDevice) ?? undefined
    try {
      await this.mic.start(savedMic, this.options.mic)
    } catch (error) {
      if (!savedMic) throw error
      // The remembered device is gone: fall back to the default one
      storage.removeItem(MicdropStorageKeys.MicDevice)
      await this.mic.start(undefined, this.options.mic)
    }
    await recorder.start(this.mic)
    const savedSpeaker = storage.getItem(MicdropStorageKeys.SpeakerDevice)
    if (savedSpeaker) await this.speaker.changeDevice(savedSpeaker).catch(() => {})
    await this.speaker.start()
    // Device labels are only listed once the microphone is allowed
    await this.updateDevices().catch((error) => this.log('Device list failed', error))
  }

  private connect() {
    const url = this.options.url!
    this.log('Connecting', url)
    let ws: MicdropWebSocket
    try {
      ws = this.deps.createWebSocket(url)
    } catch (error) {
      this.onSocketClose(undefined, 1006, (error as Error)?.message ?? '')
      return
    }
    this.ws = ws
    ws.binaryType = 'arraybuffer'
    ws.onopen = () => this.onSocketOpen(ws)
    ws.onmessage = (event) => this.onSocketMessage(ws, event.data)
    ws.onclose = (event) => this.onSocketClose(ws, event.code, event.reason)
    ws.onerror = () => this.log('WebSocket error')
    const timeout = this.reconnectOptions.connectionTimeoutMs
    this.connectionTimer = setTimeout(() => {
      this.connectionTimer = undefined
      if (this.ws === ws && ws.readyState === CONNECTING) {
        this.log('Connection timeout')
        this.dropSocket()
        this.onSocketClose(undefined, 1006, 'Connection timeout')
      }
    }, timeout)
    this.notify()
  }

  private get reconnectOptions() {
    return { ...DEFAULT_RECONNECT_OPTIONS, ...this.options.reconnect }
  }

  private onSocketOpen(ws: MicdropWebSocket) {
    if (this.ws !== ws) return
    this.log('Connected')
    clearTimeout(this.connectionTimer)
    this.connectionTimer = undefined
    if (this.options.params) ws.send(JSON.stringify(this.options.params))
    if (this.reconnecting && !this.paused && !this.muted) this.micRecorder?.vad.resume()
    this.starting = false
    this.reconnecting = false
    this.reconnectAttempt = 0
    this.error = undefined
    this.settleStart()
    this.notify()
  }

  private onSocketMessage(ws: MicdropWebSocket, data: unknown) {
    if (this.ws !== ws) return
    if (data instanceof ArrayBuffer) {
      // Barge-in: audio of the answer being interrupted is dropped
      if (this.paused || this.isUserSpeaking) return
      this.speaker.playAudio(arrayBufferToPcm16(data))
      if (this.processing) {
        this.processing = false
        this.notify()
      }
      return
    }
    if (typeof data !== 'string') return this.log('Ignored a frame of unknown type')
    const message = parseServerMessage(data)
    switch (message.type) {
      case 'Message':
        return this.addMessage(message.item)
      case 'CancelLastUserMessage': {
        const index = this.conversation.map((item) => item.role).lastIndexOf('user')
        if (index !== -1) this.conversation = this.conversation.filter((_, i) => i !== index)
        this.processing = false
        return this.notify()
      }
      case 'SkipAnswer':
        this.processing = false
        return this.notify()
      case 'EndCall':
        this.log('End of call')
        return void this.emit('EndCall')
      case 'ToolCall':
        return void this.emit('ToolCall', message.toolCall)
      case 'Metrics':
        return void this.emit('Metrics', message.metrics)
      case 'Unknown':
        return this.log('Ignored unknown message', message.name)
    }
  }

  private addMessage(item: MicdropConversationItem) {
    this.conversation = [...this.conversation, item]
    this.notify()
    this.emit('Message', item)
  }

  private onSocketClose(ws: MicdropWebSocket | undefined, code: number, reason: string) {
    if (ws && this.ws !== ws) return
    this.log('Closed', code, reason)
    clearTimeout(this.connectionTimer)
    this.connectionTimer = undefined
    this.ws = undefined
    const options = this.reconnectOptions
    if (isRecoverableClose(code) && this.reconnectAttempt < options.maxAttempts) {
      this.reconnecting = true
      this.reconnectAttempt++
      // Nothing can be sent while offline: stop listening until reconnected
      this.micRecorder?.vad.pause()
      this.speaker.stopAudio()
      const delay = reconnectDelayMs(this.reconnectAttempt, options, this.deps.random)
      this.log(`Reconnecting in ${delay} ms (attempt ${this.reconnectAttempt})`)
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined
        this.connect()
      }, delay)
      this.notify()
      return
    }
    const error = errorFromClose(code, reason)
    if (error) this.setError(error)
    void this.stop()
  }

  private onUserStartSpeaking = () => {
    this.log('User started speaking')
    this.send(MicdropClientCommands.StartSpeaking)
    this.processing = false
    this.speaker.stopAudio()
    this.notify()
  }

  private onUserChunk = (chunk: Int16Array) => {
    this.send(pcm16ToArrayBuffer(chunk))
  }

  private onUserStopSpeaking = () => {
    this.log('User stopped speaking')
    this.send(MicdropClientCommands.StopSpeaking)
    if (this.ws?.readyState === OPEN && !this.paused) this.processing = true
    this.notify()
  }

  private onSpeakerStart = () => {
    if (this.options.disableInterruption) {
      clearTimeout(this.echoTimer)
      this.echoTimer = undefined
      this.micRecorder?.vad.pause()
    }
    this.notify()
  }

  private onSpeakerStop = () => {
    if (this.options.disableInterruption && this.micRecorder) {
      clearTimeout(this.echoTimer)
      this.echoTimer = setTimeout(() => {
        this.echoTimer = undefined
        if (!this.muted && !this.paused && !this.reconnecting) this.micRecorder?.vad.resume()
        this.notify()
      }, ECHO_TAIL_MS)
    }
    this.notify()
  }

  private send(data: string | ArrayBuffer) {
    if (this.ws?.readyState === OPEN) this.ws.send(data)
  }

  private closeSocket(code: number) {
    const ws = this.dropSocket()
    if (ws && (ws.readyState === OPEN || ws.readyState === CONNECTING)) ws.close(code)
  }

  /** Forgets the socket (its late events are ignored) and returns it. */
  private dropSocket(): MicdropWebSocket | undefined {
    const ws = this.ws
    this.ws = undefined
    if (ws) ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null
    return ws
  }

  private clearTimers() {
    clearTimeout(this.reconnectTimer)
    clearTimeout(this.connectionTimer)
    clearTimeout(this.echoTimer)
    this.reconnectTimer = this.connectionTimer = this.echoTimer = undefined
  }

  private settleStart() {
    const pending = this.pendingStart
    this.pendingStart = undefined
    if (!pending) return
    if (this.error && !this.isStarted) pending.reject(this.error)
    else pending.resolve()
  }

  private setError(error: MicdropClientError) {
    this.log('Error', error.code, error.message)
    this.error = error
    this.notify()
    this.emit('Error', error)
  }

  private notify() {
    const state = this.state
    const previous = this.lastState ?? state
    if (this.lastState && shallowEqual(state, this.lastState)) return
    this.lastState = state
    this.emit('StateChange', state, previous)
  }

  private log(...args: unknown[]) {
    if (!this.options.debugLog) return
    console.log(`[openmic ${Date.now() - this.startTime} ms]`, ...args)
  }
}

function shallowEqual(a: MicdropState, b: MicdropState): boolean {
  for (const key of Object.keys(a) as Array<keyof MicdropState>) {
    if (a[key] !== b[key]) return false
  }
  return true
}
