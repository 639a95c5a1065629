/** What Twilio sends on a Media Stream, as the server reads it (numbers arrive as strings). */
export type TwilioInbound =
  | { event: 'connected' }
  | {
      event: 'start'
      streamSid: string
      callSid: string
      accountSid: string
      customParameters: Record<string, string>
    }
  | { event: 'media'; payload: Buffer }
  | { event: 'dtmf'; digit: string }
  | { event: 'mark'; name: string }
  | { event: 'stop' }

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Reads one text frame of Twilio's; a string says what was wrong with it. */
export function readTwilioMessage(text: string): TwilioInbound | string {
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
      return {
        event: 'start',
        streamSid: start.streamSid,
        callSid: start.callSid,
        accountSid: String(start.accountSid ?? ''),
        customParameters:
          typeof start.customParameters === 'object' && start.customParameters
            ? start.customParameters
            : {},
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
