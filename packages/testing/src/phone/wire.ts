/** μ-law bytes of one 20 ms frame at 8 kHz: what a carrier sends, and plays, a tick. */
export const PHONE_FRAME_BYTES = 160
/** Length of a frame, in ms. */
export const PHONE_FRAME_MS = 20
/** The μ-law code of silence. */
export const MULAW_SILENCE = 0xff

/**
 * What a server may send on a bidirectional media stream, in the shape Twilio and Telnyx share
 * (each adds its stream's id): audio to play (base64 μ-law 8 kHz), a mark to be told when the
 * audio before it has played, and `clear` to drop the audio not played yet.
 */
export type PhoneServerMessage =
  | { event: 'media'; media: { payload: string } }
  | { event: 'mark'; mark: { name: string } }
  | { event: 'clear' }

/** A server message read: the message, or why the carrier would not accept it. */
export type ReadPhoneServerMessage =
  { ok: true; message: PhoneServerMessage } | { ok: false; problem: string; message?: unknown }

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Reads one frame a server sent and checks what both carriers require: a JSON text frame, `event`
 * one of `media`, `mark`, `clear`, a base64 `media.payload`, a string `mark.name`; `streamId`
 * checks the carrier's own id field. Anything else is a protocol error of the server.
 */
export function readPhoneServerMessage(
  data: string | Buffer,
  isBinary: boolean,
  carrier: string,
  streamId: (message: Record<string, unknown>, event: string) => string | undefined
): ReadPhoneServerMessage {
  if (isBinary) return { ok: false, problem: `a binary frame (${carrier} reads JSON text frames)` }
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
  const wrongId = streamId(message, event)
  if (wrongId !== undefined) return { ok: false, problem: wrongId, message }
  if (event === 'media') {
    const payload = message.media?.payload
    if (typeof payload !== 'string' || payload.length % 4 !== 0 || !BASE64.test(payload)) {
      return { ok: false, problem: 'media without a base64 media.payload', message }
    }
  }
  if (event === 'mark' && typeof message.mark?.name !== 'string') {
    return { ok: false, problem: 'mark without a string mark.name', message }
  }
  return { ok: true, message: message as PhoneServerMessage }
}
