/**
 * The messages of Twilio Media Streams, as Twilio's documentation gives them
 * (https://www.twilio.com/docs/voice/media-streams/websocket-messages). Every number Twilio sends
 * inside a message (`sequenceNumber`, `chunk`, `timestamp`) is a string; `mediaFormat` holds
 * numbers.
 */

/** The first message: the protocol the stream speaks. It has no `sequenceNumber`. */
export interface TwilioConnectedMessage {
  event: 'connected'
  protocol: 'Call'
  version: '1.0.0'
}

/** The stream's metadata, sent once right after `connected` (sequence number 1). */
export interface TwilioStartMessage {
  event: 'start'
  sequenceNumber: string
  start: {
    streamSid: string
    accountSid: string
    callSid: string
    tracks: Array<'inbound' | 'outbound'>
    customParameters: Record<string, string>
    mediaFormat: { encoding: 'audio/x-mulaw'; sampleRate: 8000; channels: 1 }
  }
  streamSid: string
}

/** Caller audio: base64 μ-law 8 kHz, 20 ms (160 bytes) a message. */
export interface TwilioMediaMessage {
  event: 'media'
  sequenceNumber: string
  media: {
    track: 'inbound' | 'outbound'
    /** Counts this track's media messages from "1". */
    chunk: string
    /** Milliseconds from the start of the stream. */
    timestamp: string
    payload: string
  }
  streamSid: string
}

/** A key the caller pressed. */
export interface TwilioDtmfMessage {
  event: 'dtmf'
  streamSid: string
  sequenceNumber: string
  dtmf: { track: 'inbound_track'; digit: string }
}

/** A mark of the server played (or cleared): its `name` sent back. */
export interface TwilioMarkMessage {
  event: 'mark'
  sequenceNumber: string
  streamSid: string
  mark: { name: string }
}

/** The stream ended (the call was hung up, or the stream stopped). Twilio then closes the socket. */
export interface TwilioStopMessage {
  event: 'stop'
  sequenceNumber: string
  stop: { accountSid: string; callSid: string }
  streamSid: string
}

/** What Twilio sends a Media Streams server. */
export type TwilioStreamMessage =
  | TwilioConnectedMessage
  | TwilioStartMessage
  | TwilioMediaMessage
  | TwilioDtmfMessage
  | TwilioMarkMessage
  | TwilioStopMessage

/**
 * What a server may send Twilio on a bidirectional stream (`<Connect><Stream>`): audio to play
 * (base64 μ-law 8 kHz, any length), a mark to be told when the audio before it has played, and
 * `clear` to drop the audio not played yet.
 */
export type TwilioServerMessage =
  | { event: 'media'; streamSid: string; media: { payload: string } }
  | { event: 'mark'; streamSid: string; mark: { name: string } }
  | { event: 'clear'; streamSid: string }

export {
  MULAW_SILENCE,
  PHONE_FRAME_BYTES as TWILIO_FRAME_BYTES,
  PHONE_FRAME_MS as TWILIO_FRAME_MS,
} from '../phone/wire.js'
