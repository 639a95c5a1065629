import type {
  MicdropConversation,
  MicdropConversationItem,
  MicdropToolCall,
} from '@openmic/core/protocol'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { EventEmitter } from 'eventemitter3'
import type { MicConstraints } from '../audio/Mic.js'
import type { SpeakerEvents } from '../audio/Speaker.js'
import type { MicdropDevice, MicSource } from '../audio/types.js'
import type { MicdropStorage } from '../devices/storage.js'
import type { VADConfig } from '../vad/get-vad.js'
import type { MicdropClientError } from './MicdropClientError.js'
import type { MicdropReconnectOptions } from './reconnect.js'

/** Options of a call (`start()` merges them into the client's). */
export interface MicdropOptions {
  /** WebSocket URL of the server (`wss://…`). */
  url?: string
  /** Call parameters, sent as the first (JSON) frame of each connection, reconnections included. */
  params?: Record<string, unknown>
  /** Voice activity detection: `'volume'` (default), `'silero'`, an instance, or several combined. */
  vad?: VADConfig
  /** Keeps the user from interrupting the assistant: the VAD is paused while it speaks. */
  disableInterruption?: boolean
  /**
   * False interruptions (default true): when the user starts speaking over the assistant, pause
   * its audio instead of dropping it, and tell the server (`Played` with `paused`). Only with a
   * server that said it settles a paused answer (an openmic server's `Hello` with `resume`), and
   * only while unplayed audio is queued; otherwise (a Micdrop server, nothing left to play, or
   * `false`) the rest of the answer is dropped at once, as in Micdrop. The server then answers
   * `Resume` if the utterance was noise (a cough, a "hmm": playback goes on where it paused) or
   * `Interrupt` (the rest is dropped); the client waits for it, with no deadline of its own.
   */
  resumeAfterNoise?: boolean
  /** Reconnection after a recoverable close (network loss, server restart). */
  reconnect?: MicdropReconnectOptions
  /** Audio processing asked of the browser for the microphone. */
  mic?: MicConstraints
  /** Logs what happens to the console. */
  debugLog?: boolean
}

/** A snapshot of the call, given by `client.state` and the `StateChange` event. */
export interface MicdropState {
  /** Between `start()` and the first open connection. */
  isStarting: boolean
  /** Connected (or reconnecting) with the microphone running. */
  isStarted: boolean
  /** The connection dropped and the client is trying again. */
  isReconnecting: boolean
  /** Paused with `pause()`: nothing is heard or played, the server was told (`Mute`). */
  isPaused: boolean
  /** Muted with `mute()`: the microphone is not listened to. */
  isMuted: boolean
  /** Waiting for the user to speak. */
  isListening: boolean
  /** Waiting for the assistant's answer. */
  isProcessing: boolean
  isUserSpeaking: boolean
  isAssistantSpeaking: boolean
  isMicStarted: boolean
  micDeviceId: string | undefined
  speakerDeviceId: string | undefined
  micDevices: MicdropDevice[]
  speakerDevices: MicdropDevice[]
  conversation: MicdropConversation
  /**
   * The words of the answer being spoken, as far as playback has reached them (`''` when the
   * assistant says nothing). It grows as the audio plays (`Caption` frames from an openmic
   * server; a Micdrop server sends none), stands still while the answer is paused over the user's
   * speech, and keeps what was heard when the rest is dropped. The answer's `Message`, added to
   * `conversation` once final (heard to its end, or cut to what was heard), replaces it: the
   * caption becomes `''` in the same `StateChange`. It is also `''` once the connection it came
   * on is lost or the call stops.
   */
  caption: string
  error: MicdropClientError | undefined
}

export interface MicdropClientEvents {
  /** Something in the state changed: `(state, previous)`. */
  StateChange: [MicdropState, MicdropState]
  /** A conversation item was added by the server. */
  Message: [MicdropConversationItem]
  /**
   * The assistant ended the call, and its goodbye has been heard: emitted once the goodbye's audio
   * finished playing (or playback was stopped), so `client.stop()` in the listener cuts nothing.
   */
  EndCall: []
  /** A tool declared with `emitOutput` ran on the server. */
  ToolCall: [MicdropToolCall]
  /** The latency of a turn, as measured by the server (openmic extension). */
  Metrics: [MicdropTurnMetrics]
  Error: [MicdropClientError]
}

/** The microphone as the client uses it ({@link Mic} by default). */
export interface MicdropMic extends MicSource {
  readonly isStarted: boolean
  readonly deviceId?: string
  readonly volume: number
  start(deviceId?: string, constraints?: MicConstraints): Promise<void>
  stop(): Promise<void>
  getDevices(): Promise<MicdropDevice[]>
}

/** The speaker as the client uses it ({@link Speaker} by default). */
export interface MicdropSpeaker extends EventEmitter<SpeakerEvents> {
  readonly isPlaying: boolean
  readonly deviceId?: string
  /** Audio queued and not played yet, in ms. */
  readonly queuedMs: number
  start(): Promise<void>
  playAudio(pcm: Int16Array): void
  stopAudio(): void
  /** Pauses playback, keeping what is queued (and what comes meanwhile). */
  pauseAudio(): void
  /** Plays on where it paused. */
  resumeAudio(): void
  getVolume(): number
  changeDevice(deviceId: string): Promise<void>
  getDevices(): Promise<MicdropDevice[]>
}

/** The part of the browser's WebSocket the client uses. */
export interface MicdropWebSocket {
  readonly readyState: number
  binaryType: string
  send(data: string | ArrayBuffer): void
  close(code?: number, reason?: string): void
  onopen: ((event: any) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number; reason: string }) => void) | null
  onerror: ((event: any) => void) | null
}

/** What the client is built from; every part can be replaced (tests, other platforms). */
export interface MicdropClientDeps {
  mic: MicdropMic
  speaker: MicdropSpeaker
  createWebSocket: (url: string) => MicdropWebSocket
  storage: MicdropStorage
  random: () => number
}
