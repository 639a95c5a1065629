import { readPhoneServerMessage } from '../phone/wire.js'
import type { TwilioServerMessage } from './wire.js'

/** A server message read: the message, or why Twilio would not accept it. */
export type ReadServerMessage =
  { ok: true; message: TwilioServerMessage } | { ok: false; problem: string; message?: unknown }

/**
 * Reads one frame a server sent on a Media Stream and checks it against what Twilio accepts:
 * a JSON text frame, `event` one of `media`, `mark`, `clear`, the stream's own `streamSid`, a
 * base64 `media.payload`, a string `mark.name`. Anything else is a protocol error of the server.
 */
export function readServerMessage(
  data: string | Buffer,
  isBinary: boolean,
  streamSid: string
): ReadServerMessage {
  return readPhoneServerMessage(data, isBinary, 'Twilio', (message, event) => {
    if (message.streamSid === streamSid) return undefined
    return `${event} with streamSid ${JSON.stringify(message.streamSid)}, not ${streamSid}`
  }) as ReadServerMessage
}
