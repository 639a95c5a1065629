import { performance } from 'node:perf_hooks'
import { Resampler, decodeMulaw } from '@openmic/core/provider'
import { WebSocket } from 'ws'
import { waitUntil } from '../net/websocket-fake-server.js'
import { CallerAudio, type CallerUtterance, type SayOptions } from './caller-audio.js'
import { Playback, type ClearedAudio, type HeardFrame } from './playback.js'
import { readServerMessage } from './server-message.js'
import { twilioSid } from './sids.js'
import { TWILIO_FRAME_MS, type TwilioStreamMessage } from './wire.js'

/** Options of {@link FakeTwilioCall.connect}. */
export interface FakeTwilioCallOptions {
  /** The Media Streams server: a `ws://` or `wss://` URL, as in `<Stream url>`. */
  url: string
  /** Default: a random `AC…`. */
  accountSid?: string
  /** Default: a random `CA…`. */
  callSid?: string
  /** Default: a random `MZ…`. */
  streamSid?: string
  /** The `<Parameter>`s of the `<Stream>`, sent in `start.customParameters`. */
  customParameters?: Record<string, string>
  /** Headers of the WebSocket upgrade (Twilio signs it with `X-Twilio-Signature`). */
  headers?: Record<string, string>
  /** Give up connecting after this long (default 5000 ms). */
  connectTimeoutMs?: number
}

/** A message the server sent, as received. */
export interface ReceivedTwilioFrame {
  /** When it arrived, in ms from the start of the stream. */
  atMs: number
  data: string
  /** The parsed message, when it is JSON. */
  message?: unknown
}

/** A message the server sent that Twilio would not accept. */
export interface TwilioProtocolError {
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
export interface FakeTwilioCallEnd {
  code: number
  reason: string
  /** Who ended it: the server closed, the call sent `stop` (hang-up), or the socket was dropped. */
  by: 'server' | 'stop' | 'drop'
}

/** A hang-up of the call: by the caller, or through the REST API (`Status=completed`). */
export interface TwilioHangUp {
  atMs: number
  by: 'caller' | 'api'
}

/**
 * Twilio's side of a bidirectional Media Stream (`<Connect><Stream>`), for testing a server: it
 * connects to the server's URL, sends `connected` and `start`, then one `media` message of 20 ms
 * (160 bytes of μ-law 8 kHz) every 20 ms in real time, scheduled against the start time so it
 * does not drift. The caller says what {@link FakeTwilioCall.say} queued, and silence (0xFF)
 * otherwise.
 *
 * What the server sends is played like a phone does: its audio is queued and consumed 20 ms per
 * 20 ms; a `mark` is sent back once the audio queued before it has played (at once when nothing
 * is queued); a `clear` drops the queued audio and sends back every waiting mark, as Twilio does.
 * Every frame received is recorded with its time, every frame played with its playback time, and
 * any message Twilio would refuse (not JSON, unknown event, wrong `streamSid`, bad payload) is a
 * {@link TwilioProtocolError}.
 *
 * @example
 * const call = await FakeTwilioCall.connect({ url: 'ws://127.0.0.1:3000/twilio' })
 * call.say(helloPcm16k) // PCM16 16 kHz, sent at real-time pace
 * await call.waitFor(() => call.marks.length > 0, 10_000, 'the answer played')
 * call.heardAudio() // what the server made the caller hear, PCM16 16 kHz
 * expect(call.protocolErrors).toEqual([])
 * await call.hangUp()
 */
export class FakeTwilioCall {
  readonly accountSid: string
  readonly callSid: string
  readonly streamSid: string
  /** Every frame the server sent, in order. */
  readonly received: ReceivedTwilioFrame[] = []
  /** Every message sent to the server, with its time. */
  readonly sent: Array<{ atMs: number; message: TwilioStreamMessage }> = []
  /** The server's messages Twilio would not accept (assert it stays empty). */
  readonly protocolErrors: TwilioProtocolError[] = []
  /** Every mark sent back, in order. */
  readonly marks: EchoedMark[] = []
  /** Hang-ups of this call (at most one). */
  readonly hangUps: TwilioHangUp[] = []
  /** Resolves once the socket is closed, however it closed. */
  readonly closed: Promise<FakeTwilioCallEnd>

  private readonly caller = new CallerAudio()
  private readonly playback: Playback
  private sequence = 0
  private chunks = 0
  private startedAt = 0
  private timer?: NodeJS.Timeout
  private ending?: FakeTwilioCallEnd['by']

  private constructor(
    private readonly socket: WebSocket,
    private readonly options: FakeTwilioCallOptions
  ) {
    this.accountSid = options.accountSid ?? twilioSid('AC')
    this.callSid = options.callSid ?? twilioSid('CA')
    this.streamSid = options.streamSid ?? twilioSid('MZ')
    this.playback = new Playback((name, cleared) => this.echoMark(name, cleared))
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.stopTicking()
        resolve({ code, reason: reason.toString(), by: this.ending ?? 'server' })
      })
    )
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary))
  }

  /** Connects to a Media Streams server, sends `connected` and `start`, and starts the media. */
  static async connect(options: FakeTwilioCallOptions): Promise<FakeTwilioCall> {
    const socket = new WebSocket(options.url, { headers: options.headers })
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        socket.terminate()
        reject(new Error(`FakeTwilioCall: no connection to ${options.url}`))
      }, options.connectTimeoutMs ?? 5000)
      socket.once('open', () => {
        clearTimeout(timeout)
        resolve()
      })
      socket.once('unexpected-response', (_req, res) => {
        clearTimeout(timeout)
        socket.terminate()
        reject(new Error(`FakeTwilioCall: ${options.url} refused the upgrade (${res.statusCode})`))
      })
      socket.once('error', (error) => {
        clearTimeout(timeout)
        reject(error)
      })
    })
    socket.on('error', () => {})
    const call = new FakeTwilioCall(socket, options)
    call.begin()
    return call
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
    this.send({
      event: 'dtmf',
      streamSid: this.streamSid,
      sequenceNumber: this.nextSequence(),
      dtmf: { track: 'inbound_track', digit },
    })
  }

  /** Ends the stream as Twilio does: a `stop` message, then the socket closed (1000). */
  async stop(): Promise<FakeTwilioCallEnd> {
    if (this.open && this.ending === undefined) {
      this.ending = 'stop'
      this.stopTicking()
      this.send({
        event: 'stop',
        sequenceNumber: this.nextSequence(),
        stop: { accountSid: this.accountSid, callSid: this.callSid },
        streamSid: this.streamSid,
      })
      this.socket.close(1000)
    }
    return this.closed
  }

  /** The call is hung up (by the caller, or through the REST API): recorded, then `stop()`. */
  async hangUp(by: TwilioHangUp['by'] = 'caller'): Promise<FakeTwilioCallEnd> {
    if (this.open && this.ending === undefined) this.hangUps.push({ atMs: this.nowMs(), by })
    return this.stop()
  }

  /** Cuts the TCP connection without `stop` nor a close frame (the server sees 1006). */
  async drop(): Promise<FakeTwilioCallEnd> {
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
    await waitUntil(predicate, timeoutMs, () => `FakeTwilioCall: no ${what} in ${timeoutMs} ms`)
  }

  private begin(): void {
    this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' })
    this.startedAt = performance.now()
    this.send({
      event: 'start',
      sequenceNumber: this.nextSequence(),
      start: {
        streamSid: this.streamSid,
        accountSid: this.accountSid,
        callSid: this.callSid,
        tracks: ['inbound'],
        customParameters: { ...this.options.customParameters },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
      streamSid: this.streamSid,
    })
    this.onTimer()
  }

  /** Runs every tick that is due (several if the event loop was late), then waits for the next. */
  private onTimer(): void {
    const now = this.nowMs()
    while (this.open && this.ending === undefined && this.chunks * TWILIO_FRAME_MS <= now) {
      this.tick(this.chunks * TWILIO_FRAME_MS)
    }
    if (!this.open || this.ending !== undefined) return
    // Against the start time, not the last wake-up: timer lateness does not add up.
    const delay = Math.max(0, this.chunks * TWILIO_FRAME_MS - this.nowMs())
    this.timer = setTimeout(() => this.onTimer(), delay)
  }

  private tick(streamMs: number): void {
    this.chunks++
    this.send({
      event: 'media',
      sequenceNumber: this.nextSequence(),
      media: {
        track: 'inbound',
        chunk: String(this.chunks),
        timestamp: String(streamMs),
        payload: this.caller.nextFrame().toString('base64'),
      },
      streamSid: this.streamSid,
    })
    this.playback.tick(streamMs)
  }

  private receive(data: Buffer, isBinary: boolean): void {
    const atMs = this.nowMs()
    const text = data.toString()
    const read = readServerMessage(text, isBinary, this.streamSid)
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
    this.send({
      event: 'mark',
      sequenceNumber: this.nextSequence(),
      streamSid: this.streamSid,
      mark: { name },
    })
  }

  private send(message: TwilioStreamMessage): void {
    if (!this.open) return
    this.sent.push({ atMs: this.startedAt === 0 ? 0 : this.nowMs(), message })
    this.socket.send(JSON.stringify(message))
  }

  private nextSequence(): string {
    return String(++this.sequence)
  }

  private stopTicking(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
