/**
 * The messages of Telnyx media streaming over WebSocket, as Telnyx's documentation gives them
 * (https://developers.telnyx.com/api-reference/websockets/stream-call-media-over-websocket).
 * Ids and counters are strings, `media_format` holds numbers; the stream's id is `stream_id`.
 */

/** The first message. */
export interface TelnyxConnectedMessage {
  event: 'connected'
  version: '1.0.0'
}

/** The stream's metadata, sent once right after `connected` (sequence number 1). */
export interface TelnyxStartMessage {
  event: 'start'
  sequence_number: string
  stream_id: string
  start: {
    user_id: string
    call_control_id: string
    call_session_id: string
    from: string
    to: string
    /** Base64 state given to the Call Control command that started the stream, if any. */
    client_state?: string
    /** The stream's custom parameters (TeXML `<Parameter>`s, Call Control's `custom_parameters`). */
    custom_parameters: Record<string, string>
    media_format: { encoding: 'PCMU'; sample_rate: 8000; channels: 1 }
  }
}

/** Caller audio: a base64 RTP payload (no RTP header), PCMU 8 kHz, 20 ms (160 bytes) a message. */
export interface TelnyxMediaMessage {
  event: 'media'
  sequence_number: string
  media: { track: 'inbound' | 'outbound'; chunk: string; timestamp: string; payload: string }
  stream_id: string
}

/** A key the caller pressed. */
export interface TelnyxDtmfMessage {
  event: 'dtmf'
  sequence_number: string
  stream_id: string
  dtmf: { digit: string }
}

/** A mark of the server played (or cleared): its `name` sent back. */
export interface TelnyxMarkMessage {
  event: 'mark'
  sequence_number: string
  stream_id: string
  mark: { name: string }
}

/** The stream stopped (the call ended, or `streaming_stop`). */
export interface TelnyxStopMessage {
  event: 'stop'
  sequence_number: string
  stream_id: string
  stop: { user_id: string; call_control_id: string }
}

/** What Telnyx sends a media streaming server. */
export type TelnyxStreamMessage =
  | TelnyxConnectedMessage
  | TelnyxStartMessage
  | TelnyxMediaMessage
  | TelnyxDtmfMessage
  | TelnyxMarkMessage
  | TelnyxStopMessage
