import { EventEmitter } from 'eventemitter3'
import {
  MicdropClientCommands,
  MicdropClientExtensions,
  audioMs,
  encodeClientHello,
  encodePlayed,
  parseServerMessage,
} from '@openmic/core/protocol'
import type { MicdropConversation, MicdropServerHello } from '@openmic/core/protocol'
import { Mic } from '../audio/Mic.js'
import type { MicRecorder } from '../audio/MicRecorder.js'
import { arrayBufferToPcm16, pcm16ToArrayBuffer } from '../audio/pcm.js'
import { Speaker } from '../audio/Speaker.js'
import type { MicdropDevice } from '../audio/types.js'
import { browserStorage } from '../devices/storage.js'
import { CallAudio } from './call-audio.js'
import { Connection } from './connection.js'
import { LiveCaption } from './live-caption.js'
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
 * Unplayed audio worth pausing (ms): with less, `Played` (rounded to the ms) would report it all
 * played, and the server, finding nothing to hold, would only answer `Interrupt`.
 */
const PAUSABLE_MS = 1

/**
 * One voice call with a Micdrop-protocol server: microphone → VAD → server, server audio →
 * speaker, with the call state, barge-in (and the server's pause over a false interruption), the
 * live caption of the answer, pause and mute, device selection and reconnection. Constructing it
 * touches no browser API; everything starts on `start()`.
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
  /** Assistant audio received on this connection (ms), played or not: the server counts the same. */
  private receivedMs = 0
  /** The speaker stops because the answer is dropped, not because it was all played. */
  private droppingAudio = false
  /** This connection's server's reply to our `Hello` (none from a Micdrop server). */
  private serverHello?: MicdropServerHello
  /** The answer is paused over the user's speech, waiting for `Resume` or `Interrupt`. */
  private answerPaused = false
  /**
   * The answer was dropped at a barge-in: its audio still on its way is discarded until the
   * server settles that barge-in (a server whose `Hello` says `settlesBargeIns`).
   */
  private discardingCut = false
  /** Barge-ins (`StartSpeaking`, `Mute`) that server has not settled yet, oldest first. */
  private openBargeIns = 0
  private readonly liveCaption = new LiveCaption(
    () => this.playedMs,
    () => this.notify()
  )
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
    this.audio.on('PauseSpeaking', this.onUserPauseSpeaking)
    this.audio.on('ResumeSpeaking', this.onUserResumeSpeaking)
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
  /** The words of the answer being spoken, as far as playback reached them ({@link MicdropState.caption}). */
  get caption(): string {
    return this.liveCaption.text
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
      caption: this.caption,
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
    this.answerPaused = false
    // Nothing is being said any more, and the answer's Message cannot come
    this.liveCaption.reset()
    this.starting = false
    this.processing = false
    this.paused = false
    this.muted = false
    // What was heard of the answer playing: the server keeps that much of it
    this.reportPlayed(false)
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
    this.reportPlayed(false)
    this.cutAnswer()
    this.connection?.send(MicdropClientCommands.Mute)
    this.bargedIn()
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
    // A new connection is a new call on the server: its audio is counted from zero, and its
    // server says again (or not, a Micdrop server) whether it settles a paused answer
    this.receivedMs = 0
    this.serverHello = undefined
    this.audio.reportPauses(false)
    this.answerPaused = false
    this.discardingCut = false
    this.openBargeIns = 0
    this.liveCaption.reset()
    // Right behind the params: what this client does, before anything else the server reads
    this.connection?.send(encodeClientHello({ captions: true, reportsPlaybackEnd: true }))
    this.updateListening()
    this.starting = false
    this.error = undefined
    this.settleStart()
    this.notify()
  }

  private onReconnecting = () => {
    // Nothing can be sent while offline: the user is not heard until reconnected
    this.updateListening()
    this.answerPaused = false
    this.discardingCut = false
    this.openBargeIns = 0
    // The lost connection's server cannot send the answer's Message: its caption goes now
    this.liveCaption.reset()
    this.speaker.stopAudio()
    this.notify()
  }

  private onConnectionClose = (code: number, reason: string) => {
    const error = errorFromClose(code, reason)
    if (error) this.setError(error)
    void this.stop()
  }

  private onAssistantAudio = (data: ArrayBuffer) => {
    this.receivedMs += audioMs(data.byteLength)
    // Barge-in: audio of the answer being interrupted is dropped, or queued behind the pause
    if (this.paused || this.discardingCut || (this.isUserSpeaking && !this.answerPaused)) {
      return this.liveCaption.drop(this.receivedMs)
    }
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
        // The final answer replaces its caption, in the same StateChange
        if (message.item.role === 'assistant') this.liveCaption.clear()
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
      case 'Resume':
        return this.onResume()
      case 'Interrupt':
        return this.onInterrupt()
      case 'Hello':
        this.serverHello = message.hello
        // A server that answers at the user's pauses is told of them (an openmic extension)
        this.audio.reportPauses(message.hello.preemptive === true)
        return this.log('Server hello', message.hello)
      case 'Caption':
        return this.liveCaption.add(message.caption)
      case 'Unknown':
        return this.log('Ignored unknown message', message.name)
    }
  }

  private onUserStartSpeaking = () => {
    this.log('User started speaking')
    const pause = this.canPauseAnswer()
    // Before StartSpeaking, so that the server knows what was heard when it handles it
    this.reportPlayed(pause)
    this.connection?.send(MicdropClientCommands.StartSpeaking)
    this.bargedIn()
    this.processing = false
    if (pause) this.pauseAnswer()
    else this.cutAnswer()
    this.notify()
  }

  /**
   * The server's rule: the answer is paused over the user's speech, rather than dropped, only if
   * this connection's server said it settles a paused answer (`Hello` with `resume`), and there
   * is unplayed audio to pause (an answer that finished playing has nothing left to resume).
   */
  private canPauseAnswer(): boolean {
    return (
      this.options.resumeAfterNoise !== false &&
      this.serverHello?.resume === true &&
      this.speaker.queuedMs >= PAUSABLE_MS
    )
  }

  /** Where playback is in the connection's assistant audio (ms): what was received, minus what is queued. */
  private get playedMs(): number {
    return this.receivedMs - this.speaker.queuedMs
  }

  /**
   * Tells the server how far the assistant audio was played (`Played`, an openmic extension a
   * Micdrop server ignores), and whether the rest is paused. Only once there was assistant audio.
   */
  private reportPlayed(paused: boolean) {
    if (this.receivedMs === 0 || !this.connection?.isOpen) return
    const ms = Math.max(0, Math.round(this.playedMs))
    this.connection.send(encodePlayed(paused ? { ms, paused: true } : { ms }))
  }

  /**
   * Pauses the answer over the user's speech, audio that comes queuing behind, until the server
   * says whether it was noise (`Resume`) or not (`Interrupt`): the client sets no deadline of
   * its own, the server settles every pause.
   */
  private pauseAnswer() {
    this.answerPaused = true
    this.speaker.pauseAudio()
    this.liveCaption.hold()
  }

  private get settlesBargeIns(): boolean {
    return this.serverHello?.settlesBargeIns === true
  }

  /** A barge-in was sent: it stays open until its server settles it. */
  private bargedIn() {
    if (this.settlesBargeIns && this.connection?.isOpen) this.openBargeIns++
  }

  /**
   * The server settled the oldest open barge-in; true when none is left open (always, with a
   * server that settles only a pause, once).
   */
  private settleBargeIn(): boolean {
    if (!this.settlesBargeIns) return true
    this.openBargeIns = Math.max(0, this.openBargeIns - 1)
    return this.openBargeIns === 0
  }

  private onResume() {
    // A later barge-in still waits for its own verdict: the answer stays paused
    if (!this.settleBargeIn() || !this.answerPaused) return
    this.log('Noise: the answer plays on')
    this.answerPaused = false
    this.speaker.resumeAudio()
    this.liveCaption.release()
    this.notify()
  }

  private onInterrupt() {
    const last = this.settleBargeIn()
    if (last) this.discardingCut = false
    if (!this.answerPaused) return
    this.log('Interrupted: the paused answer is dropped')
    this.dropAnswer()
    // A later pause still waits for its verdict: what comes next queues behind it
    if (!last) this.pauseAnswer()
    this.notify()
  }

  /** Barge-in: drops the answer, and what of it is still on its way from an openmic server. */
  private cutAnswer() {
    this.dropAnswer()
    this.discardingCut = this.serverHello?.settlesBargeIns === true
  }

  /** Drops the answer's unplayed audio, paused or not, and the captions it did not reach. */
  private dropAnswer() {
    this.answerPaused = false
    // First: the position is still the one the speaker reached
    this.liveCaption.drop(this.receivedMs)
    this.droppingAudio = true
    this.speaker.stopAudio()
    this.droppingAudio = false
  }

  private onUserChunk = (chunk: Int16Array) => {
    this.connection?.send(pcm16ToArrayBuffer(chunk))
  }

  private onUserPauseSpeaking = () => {
    this.log('User paused')
    this.connection?.send(MicdropClientExtensions.PauseSpeaking)
  }

  private onUserResumeSpeaking = () => {
    this.log('User went on')
    this.connection?.send(MicdropClientExtensions.ResumeSpeaking)
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
    // Playback ran out (it was not dropped): the server learns the answer was heard to its end
    if (!this.droppingAudio) this.reportPlayed(false)
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
