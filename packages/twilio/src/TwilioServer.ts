import {
  MediaStreamServer,
  type MediaStreamCommand,
  type MediaStreamServerEvents,
  type MediaStreamServerOptions,
  writeMediaStreamCommand,
} from '@openmic/server'
import type { WebSocket } from 'ws'
import { readTwilioMessage } from './media-stream/inbound.js'

/** The stream's `start`: who calls, and the parameters the webhook's TwiML gave it. */
export interface TwilioStart {
  streamSid: string
  callSid: string
  accountSid: string
  customParameters: Record<string, string>
}

/**
 * The options of `MicdropServer`, plus the phone line's (`vad`, `aheadMs`, `hangUp` with the
 * CallSid, `params`, `dtmfToAgent`, `denoise`).
 */
export interface TwilioServerOptions<
  Params = Record<string, string>,
> extends MediaStreamServerOptions<Params> {}

/** The events of `MicdropServer`, plus `Start` (the stream's ids, the params) and `Dtmf`. */
export interface TwilioServerEvents<
  Params = Record<string, string>,
> extends MediaStreamServerEvents<TwilioStart, Params> {}

/**
 * One phone call on a Twilio Media Stream (`<Connect><Stream>`), with `MicdropServer`'s turn
 * rules: caller audio (μ-law 8 kHz) to the VAD and the STT, answers back as μ-law in 20 ms frames,
 * playback known from the marks Twilio sends back, `clear` at a barge-in. The call's parameters
 * are the stream's `customParameters` (the webhook's `<Parameter>`s).
 */
export class TwilioServer<Params = Record<string, string>> extends MediaStreamServer<
  TwilioStart,
  Params,
  TwilioServerEvents<Params>
> {
  protected readonly carrier = 'Twilio'

  constructor(socket: WebSocket, options: TwilioServerOptions<Params>) {
    super(socket, options)
  }

  protected override readMessage(text: string) {
    return readTwilioMessage(text)
  }

  protected override writeMessage(command: MediaStreamCommand, start: TwilioStart): string {
    return writeMediaStreamCommand(command, { streamSid: start.streamSid })
  }
}
