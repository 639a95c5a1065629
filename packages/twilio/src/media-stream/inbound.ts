import type { MediaStreamMessage } from '@openmic/server'
import type { TwilioStart } from '../TwilioServer.js'

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Reads one text frame of Twilio's; a string says what was wrong with it. */
export function readTwilioMessage(text: string): MediaStreamMessage<TwilioStart> | string {
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
      if (typeof start?.streamSid !== 'string' || typeof start.callSid !== 'string') {
        return 'start without streamSid or callSid'
      }
      const customParameters =
        typeof start.customParameters === 'object' && start.customParameters
          ? start.customParameters
          : {}
      return {
        event: 'start',
        start: {
          streamSid: start.streamSid,
          callSid: start.callSid,
          accountSid: String(start.accountSid ?? ''),
          customParameters,
        },
        callId: start.callSid,
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
    default:
      return `unknown event ${JSON.stringify(String(message.event)).slice(0, 40)}`
  }
}
