import { decodeMulaw, Resampler } from '@openmic/core/provider'
import type { VAD } from '@openmic/core'
import type { MicdropServerCommand } from '@openmic/core/protocol'
import {
  CallServer,
  VadTurns,
  type MicdropServerEvents,
  type MicdropServerOptions,
} from '@openmic/server'
import { WebSocket, type RawData } from 'ws'
import { readTwilioMessage } from './media-stream/inbound.js'
import { PhonePlayback } from './playback/PhonePlayback.js'

/** The stream's `start`: who calls, and the parameters the webhook's TwiML gave it. */
export interface TwilioStart {
  streamSid: string
  callSid: string
  accountSid: string
  customParameters: Record<string, string>
}

export interface TwilioServerOptions extends MicdropServerOptions {
  /** Hears when the caller speaks: one instance per call (e.g. `new SileroVAD()`). */
  vad: VAD
  /** Audio queued at Twilio ahead of playback (default 300 ms): what a barge-in may drop. */
  aheadMs?: number
  /** Hangs the call up once the goodbye was heard (e.g. through Twilio's REST API). */
  hangUp?: (callSid: string) => Promise<void>
}

export interface TwilioServerEvents extends MicdropServerEvents {
  /** The stream started: the call's ids and custom parameters. */
  Start: [start: TwilioStart]
  /** The caller pressed a key. */
  Dtmf: [digit: string]
}

/**
 * One phone call on a Twilio Media Stream (`<Connect><Stream>`), with `MicdropServer`'s turn
 * rules: caller audio (μ-law 8 kHz) to the VAD and the STT, answers back as μ-law in 20 ms frames,
 * playback known from the marks Twilio sends back, `clear` at a barge-in.
 */
export class TwilioServer extends CallServer<TwilioServerEvents> {
  private readonly playback: PhonePlayback
  private readonly turns: VadTurns
  private readonly toWideband = new Resampler({ fromRate: 8000, toRate: 16000 })
  private start?: TwilioStart
  private hangingUp = false

  constructor(
    readonly socket: WebSocket,
    private readonly options: TwilioServerOptions
  ) {
    super(options)
    this.playback = new PhonePlayback({
      aheadMs: options.aheadMs ?? 300,
      markEveryMs: 100,
      send: (message) => this.sendToTwilio(message),
      playedOut: (ms) => this.input.played({ ms }),
    })
    this.turns = new VadTurns(options.vad, this.input, {
      beforeStartSpeaking: () => this.bargeIn(),
      onUserAudio: (audio) => this.safeEmit('UserAudio', audio),
      log: (...message) => this.log(...message),
    })
    // The line reports its playback's end through the marks, as an openmic client would
    this.clientSaidHello({ captions: false, reportsPlaybackEnd: true })
    socket.on('message', this.onMessage)
    socket.on('close', this.onClose)
    socket.on('error', this.onError)
    if (socket.readyState !== WebSocket.OPEN) queueMicrotask(() => this.onClose())
  }

  /** The stream's ids and parameters, once `start` came. */
  get callStart(): TwilioStart | undefined {
    return this.start
  }

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

  /** The caller spoke over the answer: Twilio cannot pause, so what was not played is kept. */
  private bargeIn() {
    if (!this.playback.isPlaying) return this.input.played({ ms: this.playback.position() })
    const paused = this.resumesAfterNoise
    const ms = paused ? this.playback.pause() : this.playback.drop()
    this.input.played({ ms, paused })
  }

  private async endCall() {
    if (this.hangingUp) return
    this.hangingUp = true
    while (this.playback.isPlaying && !this.isEnded) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    if (this.start && this.options.hangUp) {
      try {
        await this.options.hangUp(this.start.callSid)
      } catch (error) {
        this.log('Hanging up failed:', error)
      }
    }
    this.close()
  }

  private readonly onMessage = (data: RawData, isBinary: boolean) => {
    if (this.isEnded) return
    if (isBinary) return this.log('Ignored a binary frame: Twilio sends text')
    const message = readTwilioMessage(data.toString())
    if (typeof message === 'string') return this.log(`Ignored a Twilio message: ${message}`)
    if (message.event !== 'start' && message.event !== 'connected' && !this.start) {
      return this.log(`Ignored ${message.event} before start`)
    }
    switch (message.event) {
      case 'start':
        if (this.start) return this.log('Ignored a second start')
        this.start = message
        this.emitPhoneEvent('Start', message)
        this.input.clientKnown()
        return this.open()
      case 'media':
        if (this.holdWhileLoading(() => this.onMessage(data, isBinary))) return
        return this.turns.audio(this.toWideband.write(decodeMulaw(message.payload)))
      case 'mark':
        return this.playback.mark(message.name)
      case 'dtmf':
        return this.emitPhoneEvent('Dtmf', message.digit)
      case 'stop':
        return this.close()
    }
  }

  /** The phone's own events, emitted as safely as the call's. */
  private emitPhoneEvent<E extends 'Start' | 'Dtmf'>(event: E, ...args: TwilioServerEvents[E]) {
    ;(this.safeEmit as (event: E, ...args: unknown[]) => void)(event, ...args)
  }

  private sendToTwilio(message: object) {
    if (!this.start || this.socket.readyState !== WebSocket.OPEN) return
    this.socket.send(JSON.stringify({ ...message, streamSid: this.start.streamSid }))
  }

  private readonly onClose = (code?: number) => {
    this.socket.off('message', this.onMessage)
    this.socket.off('close', this.onClose)
    this.socket.off('error', this.onError)
    this.input.played({ ms: this.playback.position() })
    this.turns.destroy()
    this.end(code)
  }

  private readonly onError = (error: Error) => {
    this.log('Socket error:', error)
  }
}
