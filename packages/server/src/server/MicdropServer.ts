import {
  MicdropClientCommands,
  MicdropClientExtensions,
  MicdropCloseCodes,
  encodeServerMessage,
  parseClientExtension,
  type MicdropClientHello,
  type MicdropPlayed,
  type MicdropServerCommand,
} from '@openmic/core/protocol'
import { WebSocket, type RawData } from 'ws'
import { readParamsOf } from '../params/held-frames.js'
import { CallServer } from '../transport/CallServer.js'
import {
  listenToSocket,
  stopListeningToSocket,
  type SocketEvents,
} from '../transport/socket-listeners.js'
import { VadTurns } from '../transport/VadTurns.js'
import { FrameWriter } from './frame-writer.js'
import { frameBuffer, frameSize } from './frames.js'
import type { MicdropServerEvents, MicdropServerOptions } from './types.js'

const DEFAULT_MAX_FRAME_BYTES = 65536
/** The client's words about its own turns: with the server's VAD, it hears them instead. */
const TURN_WORDS: ReadonlySet<string> = new Set([
  MicdropClientCommands.StartSpeaking,
  MicdropClientCommands.StopSpeaking,
  MicdropClientExtensions.PauseSpeaking,
  MicdropClientExtensions.ResumeSpeaking,
])

/**
 * One voice call over a WebSocket (`ws`): user audio to the STT, transcripts to the agent, answers
 * through the TTS back to the client, with barge-in, first message and end of call. Implements the
 * Micdrop protocol with openmic's extensions (docs/protocol.md in the repository); text and binary
 * frames are told apart by their opcode.
 *
 * When the socket closes, the agent, STT and TTS are destroyed and `End` is emitted.
 *
 * @example
 * wss.on('connection', (socket) => {
 *   new MicdropServer(socket, {
 *     agent: new MockAgent({ systemPrompt: 'You are helpful.' }),
 *     stt: new MockSTT(),
 *     tts: new MockTTS(),
 *     firstMessage: 'Hello!',
 *   })
 * })
 */
export class MicdropServer extends CallServer<MicdropServerEvents> {
  private readonly writer: FrameWriter
  /** With the `vad` option: the turns the server hears, instead of the client's. */
  private readonly turns?: VadTurns
  /** The client's frames that the server's VAD makes meaningless, already logged once. */
  private ignoredWithVad?: Set<string>

  constructor(
    readonly socket: WebSocket,
    private readonly options: MicdropServerOptions
  ) {
    super(options)
    this.writer = new FrameWriter(socket)
    if (options.vad) {
      this.turns = new VadTurns(options.vad, this.input, {
        onUserAudio: (audio) => this.safeEmit('UserAudio', audio),
        log: (...message) => this.log(...message),
      })
      // The client cannot know when the server heard the user: every barge-in is settled with
      // `Interrupt` (its cue to drop what it plays), and its playback is reckoned by the server.
      this.clientSaidHello({ captions: false, reportsPlaybackEnd: false })
    }
    listenToSocket(socket, this, MicdropServer.SOCKET_EVENTS)
    if (socket.readyState !== WebSocket.OPEN) {
      queueMicrotask(() => this.onClose())
      return
    }
    // The client spoke first (its params): once the frames behind them are handled (an openmic
    // client's `Hello`, given back on the next turn of the loop), it is known which client it is.
    if (readParamsOf(socket)) setImmediate(() => this.input.clientKnown())
    this.open()
  }

  protected override sendFrame(name: MicdropServerCommand, payload?: unknown): void {
    this.writer.send(encodeServerMessage(name, payload), false)
  }

  protected override sendAudio(audio: Buffer, first: boolean): void {
    this.writer.send(audio, true)
    // The answer's first audio is what the user waits for: it leaves now, not with the burst.
    if (first) this.writer.flush()
  }

  protected override closeTransport(code: number, reason?: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(code, reason)
  }

  protected override flushTransport(): void {
    this.writer.flush()
  }

  /** What a call does with its socket's events (shared by every call: see `listenToSocket`). */
  private static readonly SOCKET_EVENTS: SocketEvents<MicdropServer> = {
    message: (call, data, isBinary) => call.onMessage(data, isBinary),
    close: (call, code) => call.onClose(code),
    error: (call, error) => call.log('Socket error:', error),
  }

  private onMessage(data: RawData, isBinary: boolean) {
    if (this.isEnded) return
    try {
      if (frameSize(data) > (this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES)) {
        this.log(`Frame of ${frameSize(data)} bytes is over the limit: closing`)
        this.close(MicdropCloseCodes.MessageTooBig, 'Frame too large')
        return
      }
      const text = isBinary ? undefined : frameBuffer(data).toString()
      // The client's Hello changes nothing in the conversation: it counts at once, history or not
      const extension = text === undefined ? undefined : parseClientExtension(text)
      if (extension?.type === 'Hello') return this.onHello(extension.hello)
      // Frames that come in while the history loads are handled after it, in order.
      if (this.loadingHistory) return this.holdFrame(data, isBinary)
      if (text === undefined) this.onAudio(frameBuffer(data))
      else if (extension) this.onPlayed(extension.played)
      else this.onCommand(text)
      this.input.clientKnown()
    } catch (error) {
      this.log('Internal error:', error)
      this.close(MicdropCloseCodes.InternalError, 'Internal error')
    }
  }

  /**
   * Keeps a frame until the history is in. A method of its own: a closure over the frame written
   * in `onMessage` would cost every frame a context, loading or not.
   */
  private holdFrame(data: RawData, isBinary: boolean) {
    this.holdWhileLoading(() => this.onMessage(data, isBinary))
  }

  private onAudio(audio: Buffer) {
    if (this.turns) this.turns.audio(audio)
    // Checked first: most apps do not listen, and every frame would pay for the emit's arguments
    else if (this.input.userAudio(audio) && this.listenerCount('UserAudio') > 0) {
      this.safeEmit('UserAudio', audio)
    }
  }

  /**
   * The client's `Played`. With the server's VAD it is ignored: the client reports at moments
   * of its own, not at the barge-ins the server hears, so its last report would misplace them.
   */
  private onPlayed(played: MicdropPlayed) {
    if (this.turns) this.ignoreWithVad('Played')
    else this.input.played(played)
  }

  private onCommand(text: string) {
    if (this.turns && TURN_WORDS.has(text)) return this.ignoreWithVad(text)
    switch (text) {
      case MicdropClientCommands.StartSpeaking:
        return this.input.startSpeaking()
      case MicdropClientCommands.StopSpeaking:
        return this.input.stopSpeaking()
      case MicdropClientCommands.Mute:
        this.turns?.muted()
        return this.input.mute()
      case MicdropClientExtensions.PauseSpeaking:
        return void this.input.pauseSpeaking()
      case MicdropClientExtensions.ResumeSpeaking:
        return this.input.resumeSpeaking()
      default:
        this.log(`Ignored unknown text frame: ${text.slice(0, 80)}`)
    }
  }

  /** A frame the server's VAD takes the place of: logged the first time, never an error. */
  private ignoreWithVad(frame: string) {
    this.ignoredWithVad ??= new Set()
    if (this.ignoredWithVad.has(frame)) return
    this.ignoredWithVad.add(frame)
    this.log(
      `Ignored ${frame} from the client (and those after it): the server's VAD hears the turns`
    )
  }

  private onClose(code?: number) {
    stopListeningToSocket(this.socket)
    this.turns?.destroy()
    this.end(code)
  }

  /** An openmic client said what it does: the server answers with what it does. */
  private onHello(hello: MicdropClientHello) {
    // With the server's VAD the client's reports are ignored, and it may not pause (`resume`)
    this.clientSaidHello(this.turns ? { ...hello, reportsPlaybackEnd: false } : hello)
    const resume = !this.turns && this.resumesAfterNoise
    // The VAD hears the pauses too: the client is not asked to report them
    const preemptive = !this.turns && this.preemptive
    const does = { resume, settlesBargeIns: true }
    this.sendFrame('Hello', preemptive ? { ...does, preemptive: true } : does)
    this.input.clientKnown()
  }
}
