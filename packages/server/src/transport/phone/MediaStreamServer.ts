import type { Denoiser, VAD } from '@openmic/core'
import { decodeMulaw, MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import type { MicdropServerCommand } from '@openmic/core/protocol'
import { WebSocket, type RawData } from 'ws'
import { MicdropError, MicdropErrorCode } from '../../errors/MicdropError.js'
import type { MicdropServerEvents, MicdropServerOptions } from '../../server/types.js'
import { CallServer } from '../CallServer.js'
import { listenToSocket, stopListeningToSocket, type SocketEvents } from '../socket-listeners.js'
import { VadTurns } from '../VadTurns.js'
import { DtmfDigits, type DtmfToAgentOptions } from './DtmfDigits.js'
import type { MediaStreamCommand, MediaStreamMessage } from './media-stream-messages.js'
import { PhonePlayback } from './PhonePlayback.js'

const DEFAULT_AHEAD_MS = 300
const MARK_EVERY_MS = 100

/** The options of every phone line: those of `MicdropServer`, plus the line's own. */
export interface MediaStreamServerOptions<
  Params = Record<string, string>,
> extends MicdropServerOptions {
  /** Hears when the caller speaks: one instance per call (e.g. `new SileroVAD()`). */
  vad: VAD
  /** Audio queued at the carrier ahead of playback (default 300 ms): what a barge-in may drop. */
  aheadMs?: number
  /** Hangs the call up once the goodbye was heard (e.g. through the carrier's REST API). */
  hangUp?: (callId: string) => Promise<void>
  /**
   * Checks the call's custom parameters, as `waitForParams` does: returns the params (a zod
   * `parse` works) or throws (a `MicdropError` keeps its code; anything else is 4400 "Invalid
   * params"). A call whose parameters are refused is logged and closed, never answered.
   */
  params?: (parameters: Record<string, string>) => Params | Promise<Params>
  /**
   * The caller's keys as user messages (off by default): the digits typed are gathered until a
   * pause or the finish key, then added to the conversation and answered. `Dtmf` fires either way.
   */
  dtmfToAgent?: boolean | DtmfToAgentOptions
  /** Noise suppression before the VAD and the STT: one instance per call (`RnnoiseDenoiser`). */
  denoise?: Denoiser
}

/** The events of every phone line: those of `MicdropServer`, plus the call's start and its keys. */
export interface MediaStreamServerEvents<
  StartInfo,
  Params = Record<string, string>,
> extends MicdropServerEvents {
  /** The stream started and its parameters were accepted: the carrier's ids, the params. */
  Start: [start: StartInfo, params: Params]
  /** The caller pressed a key. */
  Dtmf: [digit: string]
}

type StartMessage<StartInfo> = Extract<MediaStreamMessage<StartInfo>, { event: 'start' }>

/**
 * A phone call on a carrier's bidirectional media stream, whatever the carrier: caller audio
 * (μ-law 8 kHz) decoded to PCM16 16 kHz, denoised if asked, to the VAD and the STT; answers back
 * as μ-law in whole 20 ms frames, with playback known from the marks the carrier sends back;
 * `clear` at a barge-in, keeping what was not played so that a cough lets the answer go on;
 * the goodbye played before the call is hung up; the caller's keys as events (and, if asked,
 * user messages).
 *
 * A carrier package extends it with its wire mapping only: `readMessage`
 * and `writeMessage`. Not for applications, which use a carrier's server
 * (`TwilioServer`, `TelnyxServer`).
 */
export abstract class MediaStreamServer<
  StartInfo,
  Params = Record<string, string>,
  Events extends MediaStreamServerEvents<StartInfo, Params> = MediaStreamServerEvents<
    StartInfo,
    Params
  >,
> extends CallServer<Events> {
  /** The carrier's name, in log lines. */
  protected abstract readonly carrier: string
  private readonly playback: PhonePlayback
  private readonly turns: VadTurns
  private readonly toWideband = new Resampler({
    fromRate: 8000,
    toRate: MICDROP_AUDIO_FORMAT.sampleRate,
  })
  private readonly digits?: DtmfDigits
  private denoiser?: Denoiser
  private started?: StartMessage<StartInfo>
  private acceptedParams?: Params
  /** Messages that came while async `params` validation ran, replayed once it is done. */
  private heldUntilAccepted?: Array<() => void>
  private hangingUp = false
  private markClosed!: () => void
  /** Resolves once the socket closed. */
  private readonly closed = new Promise<void>((resolve) => (this.markClosed = resolve))

  constructor(
    readonly socket: WebSocket,
    private readonly lineOptions: MediaStreamServerOptions<Params>
  ) {
    super(lineOptions)
    this.denoiser = lineOptions.denoise
    this.playback = new PhonePlayback({
      aheadMs: lineOptions.aheadMs ?? DEFAULT_AHEAD_MS,
      markEveryMs: MARK_EVERY_MS,
      send: (command) => this.sendToCarrier(command),
    })
    this.playback.on('PlayedOut', (ms) => this.input.played({ ms }))
    this.turns = new VadTurns(lineOptions.vad, this.input, {
      beforeStartSpeaking: () => this.bargeIn(),
      onUserAudio: (audio) => this.safeEmit('UserAudio', audio),
      log: (...message) => this.log(...message),
    })
    const { dtmfToAgent } = lineOptions
    if (dtmfToAgent) {
      this.digits = new DtmfDigits(dtmfToAgent === true ? {} : dtmfToAgent, (digits) =>
        this.digitsToAgent(digits)
      )
    }
    // The line reports its playback's end through the marks, as an openmic client would
    this.clientSaidHello({ captions: false, reportsPlaybackEnd: true })
    // The shared handlers read only what every MediaStreamServer has, whatever its type arguments
    listenToSocket(
      socket,
      this as unknown as MediaStreamServer<unknown>,
      MediaStreamServer.SOCKET_EVENTS
    )
    if (socket.readyState !== WebSocket.OPEN) queueMicrotask(() => this.onClose())
  }

  /** The stream's `start` (the carrier's ids and parameters), once it came. */
  get callStart(): StartInfo | undefined {
    return this.started?.start
  }

  /** The call's parameters as the `params` option returned them, once accepted. */
  get params(): Params | undefined {
    return this.acceptedParams
  }

  /** Reads one text frame of the carrier's; a string says what was wrong with it. */
  protected abstract readMessage(text: string): MediaStreamMessage<StartInfo> | string

  /** Writes a command as the carrier's text frame for the stream `start` describes. */
  protected abstract writeMessage(command: MediaStreamCommand, start: StartInfo): string

  protected override sendFrame(name: MicdropServerCommand): void {
    if (name === 'Interrupt') this.playback.drop()
    else if (name === 'Resume') this.playback.resume()
    else if (name === 'EndCall') void this.endCall()
  }

  protected override sendAudio(audio: Buffer): void {
    this.playback.audio(audio)
  }

  protected override closeTransport(code: number, reason?: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(code, reason)
  }

  /** The caller spoke over the answer: the carrier cannot pause, so what was not played is kept. */
  private bargeIn() {
    if (!this.playback.isPlaying) return this.input.played({ ms: this.playback.position() })
    const paused = this.resumesAfterNoise
    const ms = paused ? this.playback.pause() : this.playback.drop()
    this.input.played({ ms, paused })
  }

  /**
   * Once the goodbye was played, hangs up and closes. A stream that ended first (the caller hung
   * up: `stop`, or the socket closed) is not hung up: the call is over already.
   */
  private async endCall() {
    if (this.hangingUp) return
    this.hangingUp = true
    await Promise.race([this.playback.whenPlayedOut(), this.closed])
    if (this.isEnded || this.socket.readyState !== WebSocket.OPEN) return
    await this.hangUpLine()
    this.close()
  }

  private async hangUpLine() {
    if (!this.started || !this.lineOptions.hangUp) return
    try {
      await this.lineOptions.hangUp(this.started.callId)
    } catch (error) {
      this.log('Hanging up failed:', error)
    }
  }

  /** What a call does with its socket's events (shared by every call: see `listenToSocket`). */
  private static readonly SOCKET_EVENTS: SocketEvents<MediaStreamServer<unknown>> = {
    message: (call, data, isBinary) => call.onMessage(data, isBinary),
    close: (call, code) => call.onClose(code),
    error: (call, error) => call.log('Socket error:', error),
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.isEnded) return
    if (isBinary) return this.log(`Ignored a binary frame: ${this.carrier} sends text`)
    const message = this.readMessage(data.toString())
    if (typeof message === 'string')
      return this.log(`Ignored a ${this.carrier} message: ${message}`)
    if (message.event !== 'start' && message.event !== 'connected' && !this.started) {
      return this.log(`Ignored ${message.event} before start`)
    }
    if (this.heldUntilAccepted && message.event !== 'stop') {
      this.heldUntilAccepted.push(() => this.onMessage(data, isBinary))
      return
    }
    switch (message.event) {
      case 'start':
        if (this.started) return this.log('Ignored a second start')
        for (const ignored of message.ignoredParameters ?? []) this.log(`Ignored ${ignored}`)
        this.started = message
        return this.accept(message)
      case 'media':
        if (this.holdWhileLoading(() => this.onMessage(data, isBinary))) return
        return this.turns.audio(this.denoised(this.toWideband.write(decodeMulaw(message.payload))))
      case 'mark':
        return this.playback.mark(message.name)
      case 'dtmf':
        this.emitLineEvent('Dtmf', message.digit)
        return this.digits?.press(message.digit)
      case 'stop':
        return this.close()
    }
  }

  /** Checks the call's parameters (`params` option), then answers the call or refuses it. */
  private accept(message: StartMessage<StartInfo>) {
    const validate = this.lineOptions.params
    if (!validate) return this.answerCall(message, message.parameters as Params)
    let params: Params | Promise<Params>
    try {
      params = validate(message.parameters)
    } catch (error) {
      return this.refuse(error)
    }
    if (!(params instanceof Promise)) return this.answerCall(message, params)
    this.heldUntilAccepted = []
    params.then(
      (accepted) => {
        const held = this.heldUntilAccepted ?? []
        this.heldUntilAccepted = undefined
        if (this.isEnded) return
        this.answerCall(message, accepted)
        for (const handle of held) handle()
      },
      (error: unknown) => this.refuse(error)
    )
  }

  private answerCall(message: StartMessage<StartInfo>, params: Params) {
    this.acceptedParams = params
    this.emitLineEvent('Start', message.start, params)
    this.input.clientKnown()
    this.open()
  }

  /**
   * Parameters refused: logged, closed with the error's code; never answered. Not hung up through
   * the REST API: the refused stream's call id is as unproven as its parameters, and hanging it up
   * would let a forged stream end someone else's call (closing the stream ends the TwiML instead).
   */
  private refuse(error: unknown) {
    this.heldUntilAccepted = undefined
    if (this.isEnded) return
    const refusal =
      error instanceof MicdropError
        ? error
        : new MicdropError(MicdropErrorCode.BadRequest, 'Invalid params')
    const cause = error instanceof MicdropError ? '' : ` (${String(error)})`
    this.log(`Refused the call: ${refusal.message}${cause}`)
    this.close(refusal.code, refusal.message)
  }

  /** The digits the caller typed, as the user's turn, answered. */
  private digitsToAgent(digits: string) {
    if (this.isEnded) return
    this.agent.addUserMessage(digits)
    void this.answer()
  }

  /** The caller's audio through the denoiser; a denoiser that throws is dropped, audio goes on. */
  private denoised(pcm16: Buffer): Buffer {
    if (!this.denoiser) return pcm16
    try {
      return this.denoiser.process(pcm16)
    } catch (error) {
      this.log('Denoiser failed, the audio goes on without it:', error)
      this.destroyDenoiser()
      return pcm16
    }
  }

  private destroyDenoiser() {
    const denoiser = this.denoiser
    this.denoiser = undefined
    try {
      denoiser?.destroy()
    } catch (error) {
      this.log('Denoiser destroy() threw:', error)
    }
  }

  /** The line's own events, emitted as safely as the call's. */
  private emitLineEvent<E extends 'Start' | 'Dtmf'>(
    event: E,
    ...args: MediaStreamServerEvents<StartInfo, Params>[E]
  ) {
    ;(this.safeEmit as (event: E, ...args: unknown[]) => void)(event, ...args)
  }

  private sendToCarrier(command: MediaStreamCommand) {
    if (!this.started || this.socket.readyState !== WebSocket.OPEN) return
    this.socket.send(this.writeMessage(command, this.started.start))
  }

  private onClose(code?: number) {
    stopListeningToSocket(this.socket)
    this.markClosed()
    this.input.played({ ms: this.playback.position() })
    this.turns.destroy()
    this.digits?.destroy()
    this.destroyDenoiser()
    this.end(code)
  }
}
