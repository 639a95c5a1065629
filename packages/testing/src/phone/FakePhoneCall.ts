import { performance } from 'node:perf_hooks'
import { Resampler, decodeMulaw } from '@openmic/core/provider'
import { WebSocket } from 'ws'
import { waitUntil } from '../net/websocket-fake-server.js'
import { CallerAudio, type CallerUtterance, type SayOptions } from './caller-audio.js'
import { Playback, type ClearedAudio, type HeardFrame } from './playback.js'
import { PHONE_FRAME_MS, type ReadPhoneServerMessage } from './wire.js'

/** A message the server sent, as received. */
export interface ReceivedPhoneFrame {
  /** When it arrived, in ms from the start of the stream. */
  atMs: number
  data: string
  /** The parsed message, when it is JSON. */
  message?: unknown
}

/** A message the server sent that the carrier would not accept. */
export interface PhoneProtocolError {
  atMs: number
  problem: string
  data: string
}

/** A mark sent back to the server. */
export interface EchoedMark {
  name: string
  atMs: number
  /** True when sent back by a `clear` (its audio was dropped), false once its audio played. */
  cleared: boolean
}

/** How the stream's socket ended. */
export interface FakePhoneCallEnd {
  code: number
  reason: string
  /** Who ended it: the server closed, the call sent `stop` (hang-up), or the socket was dropped. */
  by: 'server' | 'stop' | 'drop'
}

/** A hang-up of the call: by the caller, or through the carrier's REST API. */
export interface PhoneHangUp {
  atMs: number
  by: 'caller' | 'api'
}

/** Where and how a fake call connects. */
export interface FakePhoneConnectOptions {
  /** The media streaming server: a `ws://` or `wss://` URL. */
  url: string
  /** Headers of the WebSocket upgrade. */
  headers?: Record<string, string>
  /** Give up connecting after this long (default 5000 ms). */
  connectTimeoutMs?: number
}

/**
 * A carrier's side of a bidirectional media stream, for testing a server, whatever the carrier:
 * once connected it sends the carrier's opening messages, then one `media` message of 20 ms
 * (160 bytes of μ-law 8 kHz) every 20 ms in real time, scheduled against the start time so it
 * does not drift. The caller says what {@link FakePhoneCall.say} queued, and silence otherwise.
 *
 * What the server sends is played like a phone does: its audio is queued and consumed 20 ms per
 * 20 ms; a `mark` is sent back once the audio queued before it has played (at once when nothing
 * is queued); a `clear` drops the queued audio and sends back every waiting mark. Every frame
 * received is recorded with its time, every frame played with its playback time, and any message
 * the carrier would refuse is a {@link PhoneProtocolError}.
 *
 * A carrier's fake (`FakeTwilioCall`, `FakeTelnyxCall`) gives its wire: the messages it sends
 * and how it reads the server's.
 */
export abstract class FakePhoneCall<Message = unknown> {
  /** Every frame the server sent, in order. */
  readonly received: ReceivedPhoneFrame[] = []
  /** Every message sent to the server, with its time. */
  readonly sent: Array<{ atMs: number; message: Message }> = []
  /** The server's messages the carrier would not accept (assert it stays empty). */
  readonly protocolErrors: PhoneProtocolError[] = []
  /** Every mark sent back, in order. */
  readonly marks: EchoedMark[] = []
  /** Hang-ups of this call (at most one). */
  readonly hangUps: PhoneHangUp[] = []
  /** Resolves once the socket is closed, however it closed. */
  readonly closed: Promise<FakePhoneCallEnd>

  private readonly caller = new CallerAudio()
  private readonly playback: Playback
  private sequence = 0
  private chunks = 0
  private startedAt = 0
  private timer?: NodeJS.Timeout
  private ending?: FakePhoneCallEnd['by']

  protected constructor(private readonly socket: WebSocket) {
    this.playback = new Playback((name, cleared) => this.echoMark(name, cleared))
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.stopTicking()
        resolve({ code, reason: reason.toString(), by: this.ending ?? 'server' })
      })
    )
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary))
  }

  /** Opens the stream's WebSocket, or rejects with why it could not. */
  protected static async openSocket(
    carrier: string,
    options: FakePhoneConnectOptions
  ): Promise<WebSocket> {
    const socket = new WebSocket(options.url, { headers: options.headers })
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        socket.terminate()
        reject(new Error(`${carrier}: no connection to ${options.url}`))
      }, options.connectTimeoutMs ?? 5000)
      socket.once('open', () => {
        clearTimeout(timeout)
        resolve()
      })
      socket.once('unexpected-response', (_req, res) => {
        clearTimeout(timeout)
        socket.terminate()
        reject(new Error(`${carrier}: ${options.url} refused the upgrade (${res.statusCode})`))
      })
      socket.once('error', (error) => {
        clearTimeout(timeout)
        reject(error)
      })
    })
    socket.on('error', () => {})
    return socket
  }

  /** Ms since the `start` message: the stream's clock, of every time recorded. */
  nowMs(): number {
    return performance.now() - this.startedAt
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN
  }

  /**
   * Queues speech after what is queued (or at `atMs`): PCM16 16 kHz by default, or μ-law 8 kHz
   * with `format: 'mulaw'`. Returns its place on the stream's timeline.
   */
  say(audio: Buffer, options: SayOptions = {}): CallerUtterance {
    return this.caller.say(audio, options)
  }

  /** Queues `ms` of silence after what is queued. */
  silence(ms: number): void {
    this.caller.silence(ms)
  }

  /** Every utterance queued, with its start and end on the stream's timeline. */
  get utterances(): readonly CallerUtterance[] {
    return this.caller.utterances
  }

  /** True while queued speech has not all been sent. */
  get speaking(): boolean {
    return this.caller.speaking
  }

  /** Sends a `dtmf` message: the caller pressed `digit`. */
  sendDtmf(digit: string): void {
    this.send(this.dtmfMessage(digit))
  }

  /** Sends a raw text frame, as is (for bad-input tests). */
  sendRaw(data: string): void {
    if (this.open) this.socket.send(data)
  }

  /** Ends the stream as the carrier does: a `stop` message, then the socket closed (1000). */
  async stop(): Promise<FakePhoneCallEnd> {
    if (this.open && this.ending === undefined) {
      this.ending = 'stop'
      this.stopTicking()
      this.send(this.stopMessage())
      this.socket.close(1000)
    }
    return this.closed
  }

  /** The call is hung up (by the caller, or through the REST API): recorded, then `stop()`. */
  async hangUp(by: PhoneHangUp['by'] = 'caller'): Promise<FakePhoneCallEnd> {
    if (this.open && this.ending === undefined) this.hangUps.push({ atMs: this.nowMs(), by })
    return this.stop()
  }

  /** Cuts the TCP connection without `stop` nor a close frame (the server sees 1006). */
  async drop(): Promise<FakePhoneCallEnd> {
    if (this.ending === undefined) this.ending = 'drop'
    this.stopTicking()
    this.socket.terminate()
    return this.closed
  }

  /** Every frame of the server's audio played, with its playback time. */
  get heard(): readonly HeardFrame[] {
    return this.playback.frames
  }

  /** How much of the server's audio has played, in ms. */
  get heardMs(): number {
    return this.playback.heardMs
  }

  /** The server's audio queued and not played yet, in ms. */
  get queuedMs(): number {
    return this.playback.queuedMs
  }

  /** Every `clear` the server sent, with the audio it dropped and the marks it sent back. */
  get cleared(): readonly ClearedAudio[] {
    return this.playback.cleared
  }

  /**
   * All the server's audio played so far, decoded and resampled to PCM16 16 kHz (the gaps when
   * nothing was queued are left out: frame `f` starts at `f.offsetMs`).
   */
  heardAudio(): Buffer {
    const mulaw = Buffer.concat(this.playback.frames.map((frame) => frame.mulaw))
    const resampler = new Resampler({ fromRate: 8000, toRate: 16_000 })
    return Buffer.concat([resampler.write(decodeMulaw(mulaw)), resampler.end()])
  }

  /** The messages of one event the server sent (valid or not), parsed. */
  receivedEvents(event: string): any[] {
    return this.received
      .map((frame) => frame.message as { event?: unknown } | undefined)
      .filter((message) => message?.event === event)
  }

  /** Resolves once `predicate()` holds (checked every 2 ms), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    await waitUntil(
      predicate,
      timeoutMs,
      () => `${this.constructor.name}: no ${what} in ${timeoutMs} ms`
    )
  }

  /** The carrier's messages before the first media (`connected`, `start`...). */
  protected abstract openingMessages(): Message[]
  /** One 20 ms frame of caller audio; `chunk` counts from 1, `streamMs` from the start. */
  protected abstract mediaMessage(payload: string, chunk: number, streamMs: number): Message
  /** A mark sent back. */
  protected abstract markMessage(name: string): Message
  protected abstract dtmfMessage(digit: string): Message
  protected abstract stopMessage(): Message
  /** Reads a frame of the server's and checks it as the carrier would. */
  protected abstract readServerMessage(data: string, isBinary: boolean): ReadPhoneServerMessage

  /** The next sequence number, as the string carriers send. */
  protected nextSequence(): string {
    return String(++this.sequence)
  }

  /** Sends the opening messages, then starts the media (call once, right after construction). */
  protected begin(): void {
    const [first, ...rest] = this.openingMessages()
    if (first !== undefined) this.send(first)
    // The stream's clock starts at `start`, the message after `connected`.
    this.startedAt = performance.now()
    for (const message of rest) this.send(message)
    this.onTimer()
  }

  /** Runs every tick that is due (several if the event loop was late), then waits for the next. */
  private onTimer(): void {
    const now = this.nowMs()
    while (this.open && this.ending === undefined && this.chunks * PHONE_FRAME_MS <= now) {
      this.tick(this.chunks * PHONE_FRAME_MS)
    }
    if (!this.open || this.ending !== undefined) return
    // Against the start time, not the last wake-up: timer lateness does not add up.
    const delay = Math.max(0, this.chunks * PHONE_FRAME_MS - this.nowMs())
    this.timer = setTimeout(() => this.onTimer(), delay)
  }

  private tick(streamMs: number): void {
    this.chunks++
    this.send(this.mediaMessage(this.caller.nextFrame().toString('base64'), this.chunks, streamMs))
    this.playback.tick(streamMs)
  }

  private receive(data: Buffer, isBinary: boolean): void {
    const atMs = this.nowMs()
    const text = data.toString()
    const read = this.readServerMessage(text, isBinary)
    const parsed: unknown = read.message
    this.received.push({ atMs, data: text, ...(parsed === undefined ? {} : { message: parsed }) })
    if (!read.ok) {
      this.protocolErrors.push({ atMs, problem: read.problem, data: text })
      return
    }
    const { message } = read
    if (message.event === 'media')
      this.playback.addAudio(Buffer.from(message.media.payload, 'base64'))
    else if (message.event === 'mark') this.playback.addMark(message.mark.name, atMs)
    else this.playback.clear(atMs)
  }

  private echoMark(name: string, cleared: boolean): void {
    this.marks.push({ name, atMs: this.nowMs(), cleared })
    this.send(this.markMessage(name))
  }

  private send(message: Message): void {
    if (!this.open) return
    this.sent.push({ atMs: this.startedAt === 0 ? 0 : this.nowMs(), message })
    this.socket.send(JSON.stringify(message))
  }

  private stopTicking(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
