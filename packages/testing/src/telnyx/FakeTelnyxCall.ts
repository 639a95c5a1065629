import type { WebSocket } from 'ws'
import { FakePhoneCall, type FakePhoneConnectOptions } from '../phone/FakePhoneCall.js'
import { readPhoneServerMessage, type ReadPhoneServerMessage } from '../phone/wire.js'
import { telnyxCallControlId, telnyxUuid } from './ids.js'
import type { TelnyxStreamMessage } from './wire.js'

/** Options of {@link FakeTelnyxCall.connect}. */
export interface FakeTelnyxCallOptions extends FakePhoneConnectOptions {
  /** Default: a random `v3:…`. */
  callControlId?: string
  /** Default: a random UUID. */
  streamId?: string
  /** The stream's custom parameters, sent in `start.custom_parameters`. */
  customParameters?: Record<string, string>
  /** Sent in `start.client_state` (base64), when given. */
  clientState?: string
  /** Default `+13125550100`. */
  from?: string
  /** Default `+13125550199`. */
  to?: string
}

/**
 * Telnyx's side of a bidirectional media stream (`stream_bidirectional_mode: "rtp"`, PCMU), for
 * testing a server: it connects, sends `connected` and `start`, then one `media` message of 20 ms
 * every 20 ms in real time, plays what the server sends at real-time pace, sends marks back once
 * their audio played, honours `clear`, and records everything (see {@link FakePhoneCall}). A
 * server message Telnyx would not take (not JSON, unknown event, a `stream_id` of another stream,
 * a payload that is not base64) is a protocol error.
 *
 * @example
 * const call = await FakeTelnyxCall.connect({ url: 'ws://127.0.0.1:3000/telnyx' })
 * call.say(helloPcm16k)
 * await call.waitFor(() => call.heardMs > 500, 10_000, 'the answer')
 * expect(call.protocolErrors).toEqual([])
 */
export class FakeTelnyxCall extends FakePhoneCall<TelnyxStreamMessage> {
  readonly callControlId: string
  readonly streamId: string
  readonly callSessionId = telnyxUuid()
  readonly userId = telnyxUuid()

  private constructor(
    socket: WebSocket,
    private readonly options: FakeTelnyxCallOptions
  ) {
    super(socket)
    this.callControlId = options.callControlId ?? telnyxCallControlId()
    this.streamId = options.streamId ?? telnyxUuid()
  }

  /** Connects to a media streaming server, sends `connected` and `start`, starts the media. */
  static async connect(options: FakeTelnyxCallOptions): Promise<FakeTelnyxCall> {
    const socket = await FakePhoneCall.openSocket('FakeTelnyxCall', options)
    const call = new FakeTelnyxCall(socket, options)
    call.begin()
    return call
  }

  protected override openingMessages(): TelnyxStreamMessage[] {
    const { clientState } = this.options
    return [
      { event: 'connected', version: '1.0.0' },
      {
        event: 'start',
        sequence_number: this.nextSequence(),
        stream_id: this.streamId,
        start: {
          user_id: this.userId,
          call_control_id: this.callControlId,
          call_session_id: this.callSessionId,
          from: this.options.from ?? '+13125550100',
          to: this.options.to ?? '+13125550199',
          ...(clientState === undefined ? {} : { client_state: clientState }),
          custom_parameters: { ...this.options.customParameters },
          media_format: { encoding: 'PCMU', sample_rate: 8000, channels: 1 },
        },
      },
    ]
  }

  protected override mediaMessage(payload: string, chunk: number, streamMs: number) {
    return {
      event: 'media' as const,
      sequence_number: this.nextSequence(),
      media: {
        track: 'inbound' as const,
        chunk: String(chunk),
        timestamp: String(streamMs),
        payload,
      },
      stream_id: this.streamId,
    }
  }

  protected override markMessage(name: string) {
    return {
      event: 'mark' as const,
      sequence_number: this.nextSequence(),
      stream_id: this.streamId,
      mark: { name },
    }
  }

  protected override dtmfMessage(digit: string) {
    return {
      event: 'dtmf' as const,
      sequence_number: this.nextSequence(),
      stream_id: this.streamId,
      dtmf: { digit },
    }
  }

  protected override stopMessage() {
    return {
      event: 'stop' as const,
      sequence_number: this.nextSequence(),
      stream_id: this.streamId,
      stop: { user_id: this.userId, call_control_id: this.callControlId },
    }
  }

  /** A `stream_id` is optional on what the server sends; when there, it must be this stream's. */
  protected override readServerMessage(data: string, isBinary: boolean): ReadPhoneServerMessage {
    return readPhoneServerMessage(data, isBinary, 'Telnyx', (message, event) => {
      if (message.stream_id === undefined || message.stream_id === this.streamId) return undefined
      return `${event} with stream_id ${JSON.stringify(message.stream_id)}, not ${this.streamId}`
    })
  }
}
