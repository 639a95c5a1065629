import type { TwilioServerMessage } from './wire.js'

/** A server message read: the message, or why Twilio would not accept it. */
export type ReadServerMessage =
  { ok: true; message: TwilioServerMessage } | { ok: false; problem: string; message?: unknown }

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

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
  if (isBinary) return { ok: false, problem: 'a binary frame (Twilio reads JSON text frames)' }
  let message: any
  try {
    message = JSON.parse(String(data))
  } catch {
    return { ok: false, problem: 'not JSON' }
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { ok: false, problem: 'not a JSON object', message }
  }
  const { event } = message
  if (event !== 'media' && event !== 'mark' && event !== 'clear') {
    return { ok: false, problem: `unknown event ${JSON.stringify(event)}`, message }
  }
  if (message.streamSid !== streamSid) {
    const sid = JSON.stringify(message.streamSid)
    return { ok: false, problem: `${event} with streamSid ${sid}, not ${streamSid}`, message }
  }
  if (event === 'media') {
    const payload = message.media?.payload
    if (typeof payload !== 'string' || payload.length % 4 !== 0 || !BASE64.test(payload)) {
      return { ok: false, problem: 'media without a base64 media.payload', message }
    }
  }
  if (event === 'mark' && typeof message.mark?.name !== 'string') {
    return { ok: false, problem: 'mark without a string mark.name', message }
  }
  return { ok: true, message: message as TwilioServerMessage }
}
