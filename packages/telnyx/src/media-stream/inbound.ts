import type { MediaStreamMessage } from '@openmic/server'
import type { TelnyxStart } from '../TelnyxServer.js'

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The custom parameters of `start`: an object of strings (anything else is left out). */
function readParameters(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  )
}

/** Reads one text frame of Telnyx's media streaming; a string says what was wrong with it. */
export function readTelnyxMessage(text: string): MediaStreamMessage<TelnyxStart> | string {
  let message: any
  try {
    message = JSON.parse(text)
  } catch {
    return `not JSON: ${text.slice(0, 80)}`
  }
  if (typeof message !== 'object' || message === null) return 'not an object'
  switch (message.event) {
    case 'connected':
    case 'stop':
      return { event: message.event }
    case 'start': {
      const start = message.start
      if (typeof message.stream_id !== 'string' || typeof start?.call_control_id !== 'string') {
        return 'start without stream_id or start.call_control_id'
      }
      const encoding = start.media_format?.encoding
      if (encoding !== undefined && encoding !== 'PCMU' && encoding !== 'audio/x-mulaw') {
        return `start with media_format.encoding ${JSON.stringify(encoding)}: only PCMU is read`
      }
      const customParameters = readParameters(start.custom_parameters)
      return {
        event: 'start',
        start: {
          streamId: message.stream_id,
          callControlId: start.call_control_id,
          callSessionId: String(start.call_session_id ?? ''),
          from: String(start.from ?? ''),
          to: String(start.to ?? ''),
          ...(typeof start.client_state === 'string' ? { clientState: start.client_state } : {}),
          customParameters,
        },
        callId: start.call_control_id,
        parameters: customParameters,
      }
    }
    case 'media': {
      const payload = message.media?.payload
      if (typeof payload !== 'string' || payload.length % 4 !== 0 || !BASE64.test(payload)) {
        return 'media with a payload that is not base64'
      }
      return { event: 'media', payload: Buffer.from(payload, 'base64') }
    }
    case 'dtmf':
      return typeof message.dtmf?.digit === 'string'
        ? { event: 'dtmf', digit: message.dtmf.digit }
        : 'dtmf without a digit'
    case 'mark':
      return typeof message.mark?.name === 'string'
        ? { event: 'mark', name: message.mark.name }
        : 'mark without a name'
    case 'error':
      return `error from Telnyx: ${JSON.stringify(message.payload ?? message.error ?? {}).slice(0, 200)}`
    default:
      return `unknown event ${JSON.stringify(String(message.event)).slice(0, 40)}`
  }
}
