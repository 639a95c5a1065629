import {
  MediaStreamServer,
  type MediaStreamCommand,
  type MediaStreamServerEvents,
  type MediaStreamServerOptions,
  writeMediaStreamCommand,
} from '@openmic/server'
import type { WebSocket } from 'ws'
import { readTelnyxMessage } from './media-stream/inbound.js'

/** The stream's `start`: the call's ids, who calls whom, and its custom parameters. */
export interface TelnyxStart {
  streamId: string
  /** The id Call Control commands (and `hangUp`) take. */
  callControlId: string
  callSessionId: string
  from: string
  to: string
  /** The base64 `client_state` of the command that started the stream, if it had one. */
  clientState?: string
  customParameters: Record<string, string>
}

/**
 * The options of `MicdropServer`, plus the phone line's (`vad`, `aheadMs`, `hangUp` with the
 * call_control_id, `params`, `dtmfToAgent`, `denoise`).
 */
export interface TelnyxServerOptions<
  Params = Record<string, string>,
> extends MediaStreamServerOptions<Params> {}

/** The events of `MicdropServer`, plus `Start` (the stream's ids, the params) and `Dtmf`. */
export interface TelnyxServerEvents<
  Params = Record<string, string>,
> extends MediaStreamServerEvents<TelnyxStart, Params> {}

/**
 * One phone call on Telnyx media streaming in bidirectional RTP mode (PCMU 8 kHz), with
 * `MicdropServer`'s turn rules: caller audio to the VAD and the STT, answers back as PCMU in
 * 20 ms frames, playback known from the marks Telnyx sends back, `clear` at a barge-in. The
 * call's parameters are the stream's `custom_parameters`.
 */
export class TelnyxServer<Params = Record<string, string>> extends MediaStreamServer<
  TelnyxStart,
  Params,
  TelnyxServerEvents<Params>
> {
  protected readonly carrier = 'Telnyx'

  constructor(socket: WebSocket, options: TelnyxServerOptions<Params>) {
    super(socket, options)
  }

  protected override readMessage(text: string) {
    return readTelnyxMessage(text)
  }

  /** Sent without `stream_id`: the socket is the stream's. */
  protected override writeMessage(command: MediaStreamCommand): string {
    return writeMediaStreamCommand(command)
  }
}
