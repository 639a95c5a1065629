import { EventEmitter } from 'eventemitter3'
import { MicdropClientCommands, parseServerMessage } from '@openmic/core/protocol'
import type { MicdropConversation } from '@openmic/core/protocol'
import { Mic } from '../audio/Mic.js'
import type { MicRecorder } from '../audio/MicRecorder.js'
import { arrayBufferToPcm16, pcm16ToArrayBuffer } from '../audio/pcm.js'
import { Speaker } from '../audio/Speaker.js'
import type { MicdropDevice } from '../audio/types.js'
import { browserStorage } from '../devices/storage.js'
import { CallAudio } from './call-audio.js'
import { Connection } from './connection.js'
import { MicdropClientError, errorFromClose, errorFromMic } from './MicdropClientError.js'
import { sameState } from './state.js'
import type {
  MicdropClientDeps,
  MicdropClientEvents,
  MicdropOptions,
  MicdropState,
  MicdropWebSocket,
} from './types.js'

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

  readonly mic: MicdropClientDeps['mic']
  readonly speaker: MicdropClientDeps['speaker']
  private readonly deps: MicdropClientDeps
  private readonly audio: CallAudio
  private connection?: Connection
  private startTime = 0
  private lastState?: MicdropState
  private starting = false
  private processing = false
  private paused = false
  private muted = false
  private echoTimer?: ReturnType<typeof setTimeout>
  /** Emits `EndCall` once the goodbye stops playing (set while it plays). */
  private endCallWhenHeard?: () => void
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
    this.audio = new CallAudio(this.mic, this.speaker, this.deps.storage, this.log)
    this.audio.on('StartSpeaking', this.onUserStartSpeaking)
    this.audio.on('Chunk', this.onUserChunk)
    this.audio.on('StopSpeaking', this.onUserStopSpeaking)
    this.audio.on('Change', () => this.notify())
    this.speaker.on('StartPlaying', this.onSpeakerStart)
    this.speaker.on('StopPlaying', this.onSpeakerStop)
  }

  /** The recorder of the open microphone (created by `start()` or `startMic()`). */
  get micRecorder(): MicRecorder | undefined {
    return this.audio.recorder
  }
  get micDevices(): MicdropDevice[] {
    return this.audio.micDevices
  }
  get speakerDevices(): MicdropDevice[] {
    return this.audio.speakerDevices
  }

  get isStarting(): boolean {
    return this.starting && !this.isReconnecting
  }
  get isStarted(): boolean {
    const connection = this.connection
    return !!connection && (connection.isOpen || connection.isReconnecting) && this.isMicStarted
  }
  get isReconnecting(): boolean {
    return this.connection?.isReconnecting ?? false
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
    return this.audio.isUserSpeaking
  }
  get isAssistantSpeaking(): boolean {
    return this.speaker.isPlaying
  }
  get isMicStarted(): boolean {
    return this.audio.isMicStarted
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
    // A call in progress is ended; a microphone opened by startMic() is kept
    if (this.connection || this.pendingStart) await this.stop()
    this.options = { ...this.options, ...options }
    this.startTime = Date.now()
    this.conversation = []
    this.error = undefined
    this.processing = true
    this.starting = true
    this.notify()
    try {
      if (!this.options.url) throw new MicdropClientError('MissingUrl')
      if (!this.micRecorder || options.vad || options.mic) {
        await this.audio.open(this.options.vad, this.options.mic)
      }
    } catch (error) {
      return this.fail(errorFromMic(error))
    }
    const connected = new Promise<void>((resolve, reject) => {
      this.pendingStart = { resolve, reject }
    })
    this.connect(this.options.url)
    await connected
  }

  /**
   * Opens the microphone (and the speaker) before a call, to show a level meter or the device
   * list; `start()` then uses it. Nothing is sent or detected until the call is connected.
   * Rejects with a {@link MicdropClientError} (also emitted as `Error`).
   */
  startMic = async (
    options: { vad?: MicdropOptions['vad']; deviceId?: string } = {}
  ): Promise<void> => {
    if (options.vad) this.options.vad = options.vad
    if (options.deviceId) this.audio.rememberMicDevice(options.deviceId)
    try {
      await this.audio.open(this.options.vad, this.options.mic)
    } catch (error) {
      return this.fail(errorFromMic(error))
    }
    this.notify()
  }

  /** Hangs up: closes the connection, stops playback and releases the microphone. */
  stop = async (): Promise<void> => {
    this.cancelEndCall() // the app hung up itself: no EndCall afterwards
    clearTimeout(this.echoTimer)
    this.echoTimer = undefined
    this.starting = false
    this.processing = false
    this.paused = false
    this.muted = false
    this.connection?.close(1000)
    this.connection = undefined
    await this.audio.close()
    // Stopping playback above may have started the echo tail: there is nothing to listen for
    clearTimeout(this.echoTimer)
    this.echoTimer = undefined
    this.settleStart()
    this.notify()
  }

  /** Pauses the call: stops listening and playback, and tells the server (`Mute`). */
  pause = (): void => {
    if (this.paused) return
    this.paused = true
    this.processing = false
    this.updateListening()
    this.speaker.stopAudio()
    this.connection?.send(MicdropClientCommands.Mute)
    this.notify()
  }

  /** Resumes a paused call. */
  resume = (): void => {
    if (!this.paused) return
    this.paused = false
    this.updateListening()
    this.notify()
  }

  /** Stops listening to the microphone (the assistant can still talk). */
  mute = (): void => {
    this.muted = true
    this.updateListening()
    this.notify()
  }

  unmute = (): void => {
    this.muted = false
    this.updateListening()
    this.notify()
  }

  /** Switches to another microphone (remembered for the next calls). */
  changeMicDevice = async (deviceId: string): Promise<void> => {
    await this.audio.changeMicDevice(deviceId, this.options.mic)
    this.notify()
  }

  /** Switches to another output (remembered for the next calls). */
  changeSpeakerDevice = async (deviceId: string): Promise<void> => {
    await this.audio.changeSpeakerDevice(deviceId)
    this.notify()
  }

  /** Refreshes `micDevices` and `speakerDevices`. */
  updateDevices = async (): Promise<void> => {
    await this.audio.updateDevices()
  }

  private connect(url: string) {
    const connection = new Connection({
      url,
      params: this.options.params,
      reconnect: this.options.reconnect,
      createWebSocket: this.deps.createWebSocket,
      random: this.deps.random,
      log: this.log,
    })
    this.connection = connection
    connection.on('Open', this.onConnected)
    connection.on('Audio', this.onAssistantAudio)
    connection.on('Text', this.onServerMessage)
    connection.on('Reconnecting', this.onReconnecting)
    connection.on('Close', this.onConnectionClose)
    connection.open()
  }

  /**
   * The VAD hears the user only when what it detects can reach the server and is wanted: while
   * connected, neither paused nor muted, and not over the assistant when interruption is off.
   */
  private updateListening() {
    const interruptionBlocked =
      !!this.options.disableInterruption && (this.speaker.isPlaying || !!this.echoTimer)
    this.audio.listen(
      !!this.connection?.isOpen && !this.paused && !this.muted && !interruptionBlocked
    )
  }

  private onConnected = () => {
    this.updateListening()
    this.starting = false
    this.error = undefined
    this.settleStart()
    this.notify()
  }

  private onReconnecting = () => {
    // Nothing can be sent while offline: the user is not heard until reconnected
    this.updateListening()
    this.speaker.stopAudio()
    this.notify()
  }

  private onConnectionClose = (code: number, reason: string) => {
    const error = errorFromClose(code, reason)
    if (error) this.setError(error)
    void this.stop()
  }

  private onAssistantAudio = (data: ArrayBuffer) => {
    // Barge-in: audio of the answer being interrupted is dropped
    if (this.paused || this.isUserSpeaking) return
    this.speaker.playAudio(arrayBufferToPcm16(data))
    if (this.processing) {
      this.processing = false
      this.notify()
    }
  }

  private onServerMessage = (text: string) => {
    const message = parseServerMessage(text)
    switch (message.type) {
      case 'Message':
        this.conversation = [...this.conversation, message.item]
        this.notify()
        return void this.emit('Message', message.item)
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
        return this.endCallAfterPlayback()
      case 'ToolCall':
        return void this.emit('ToolCall', message.toolCall)
      case 'Metrics':
        return void this.emit('Metrics', message.metrics)
      case 'Unknown':
        return this.log('Ignored unknown message', message.name)
    }
  }

  private onUserStartSpeaking = () => {
    this.log('User started speaking')
    this.connection?.send(MicdropClientCommands.StartSpeaking)
    this.processing = false
    this.speaker.stopAudio()
    this.notify()
  }

  private onUserChunk = (chunk: Int16Array) => {
    this.connection?.send(pcm16ToArrayBuffer(chunk))
  }

  private onUserStopSpeaking = () => {
    this.log('User stopped speaking')
    this.connection?.send(MicdropClientCommands.StopSpeaking)
    if (this.connection?.isOpen && !this.paused) this.processing = true
    this.notify()
  }

  private onSpeakerStart = () => {
    if (this.options.disableInterruption) {
      clearTimeout(this.echoTimer)
      this.echoTimer = undefined
      this.updateListening()
    }
    this.notify()
  }

  private onSpeakerStop = () => {
    if (this.options.disableInterruption && this.micRecorder) {
      // The assistant's voice still echoes in the room for a moment: listen again after it
      clearTimeout(this.echoTimer)
      this.echoTimer = setTimeout(() => {
        this.echoTimer = undefined
        this.updateListening()
        this.notify()
      }, ECHO_TAIL_MS)
    }
    this.notify()
  }

  /**
   * The server sends `EndCall` right after the goodbye's last audio frame, while it still plays:
   * apps hang up on `EndCall`, so it is emitted once playback stops (the goodbye played to its end,
   * or was interrupted).
   */
  private endCallAfterPlayback() {
    if (this.endCallWhenHeard) return
    if (!this.speaker.isPlaying) return void this.emit('EndCall')
    const emit = () => {
      this.endCallWhenHeard = undefined
      this.emit('EndCall')
    }
    this.endCallWhenHeard = emit
    this.speaker.once('StopPlaying', emit)
  }

  private cancelEndCall() {
    if (!this.endCallWhenHeard) return
    this.speaker.off('StopPlaying', this.endCallWhenHeard)
    this.endCallWhenHeard = undefined
  }

  /** Reports a failure to start, ends what was started, and rejects. */
  private async fail(error: MicdropClientError): Promise<never> {
    this.setError(error)
    await this.stop()
    throw error
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
    if (this.lastState && sameState(state, this.lastState)) return
    this.lastState = state
    this.emit('StateChange', state, previous)
  }

  private log = (...args: unknown[]) => {
    if (!this.options.debugLog) return
    console.log(`[openmic ${Date.now() - this.startTime} ms]`, ...args)
  }
}
