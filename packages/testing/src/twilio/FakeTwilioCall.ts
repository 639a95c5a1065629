import type { WebSocket } from 'ws'
import {
  FakePhoneCall,
  type EchoedMark,
  type FakePhoneCallEnd,
  type PhoneHangUp,
  type PhoneProtocolError,
  type ReceivedPhoneFrame,
} from '../phone/FakePhoneCall.js'
import type { ReadPhoneServerMessage } from '../phone/wire.js'
import { readServerMessage } from './server-message.js'
import { twilioSid } from './sids.js'
import type { TwilioStreamMessage } from './wire.js'

export type { EchoedMark }
/** A message the server sent, as received. */
export type ReceivedTwilioFrame = ReceivedPhoneFrame
/** A message the server sent that Twilio would not accept. */
export type TwilioProtocolError = PhoneProtocolError
/** How the stream's socket ended. */
export type FakeTwilioCallEnd = FakePhoneCallEnd
/** A hang-up of the call: by the caller, or through the REST API (`Status=completed`). */
export type TwilioHangUp = PhoneHangUp

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

/**
 * Twilio's side of a bidirectional Media Stream (`<Connect><Stream>`), for testing a server: it
 * connects to the server's URL, sends `connected` and `start`, then one `media` message of 20 ms
 * (160 bytes of μ-law 8 kHz) every 20 ms in real time, scheduled against the start time so it
 * does not drift. The caller says what {@link FakePhoneCall.say} queued, and silence (0xFF)
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
export class FakeTwilioCall extends FakePhoneCall<TwilioStreamMessage> {
  readonly accountSid: string
  readonly callSid: string
  readonly streamSid: string

  private constructor(
    socket: WebSocket,
    private readonly options: FakeTwilioCallOptions
  ) {
    super(socket)
    this.accountSid = options.accountSid ?? twilioSid('AC')
    this.callSid = options.callSid ?? twilioSid('CA')
    this.streamSid = options.streamSid ?? twilioSid('MZ')
  }

  /** Connects to a Media Streams server, sends `connected` and `start`, and starts the media. */
  static async connect(options: FakeTwilioCallOptions): Promise<FakeTwilioCall> {
    const call = new FakeTwilioCall(
      await FakePhoneCall.openSocket('FakeTwilioCall', options),
      options
    )
    call.begin()
    return call
  }

  protected override openingMessages(): TwilioStreamMessage[] {
    return [
      { event: 'connected', protocol: 'Call', version: '1.0.0' },
      {
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
      },
    ]
  }

  protected override mediaMessage(payload: string, chunk: number, streamMs: number) {
    return {
      event: 'media' as const,
      sequenceNumber: this.nextSequence(),
      media: {
        track: 'inbound' as const,
        chunk: String(chunk),
        timestamp: String(streamMs),
        payload,
      },
      streamSid: this.streamSid,
    }
  }

  protected override markMessage(name: string) {
    return {
      event: 'mark' as const,
      sequenceNumber: this.nextSequence(),
      streamSid: this.streamSid,
      mark: { name },
    }
  }

  protected override dtmfMessage(digit: string) {
    return {
      event: 'dtmf' as const,
      streamSid: this.streamSid,
      sequenceNumber: this.nextSequence(),
      dtmf: { track: 'inbound_track' as const, digit },
    }
  }

  protected override stopMessage() {
    return {
      event: 'stop' as const,
      sequenceNumber: this.nextSequence(),
      stop: { accountSid: this.accountSid, callSid: this.callSid },
      streamSid: this.streamSid,
    }
  }

  protected override readServerMessage(data: string, isBinary: boolean): ReadPhoneServerMessage {
    return readServerMessage(data, isBinary, this.streamSid)
  }
}
