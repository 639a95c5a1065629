import {
  parseMediaStreamFrame,
  readCommonMediaStreamEvent,
  readCustomParameters,
  unknownMediaStreamEvent,
  type MediaStreamMessage,
} from '@openmic/server'
import type { TwilioStart } from '../TwilioServer.js'

/** Reads one text frame of Twilio's; a string says what was wrong with it. */
export function readTwilioMessage(text: string): MediaStreamMessage<TwilioStart> | string {
  const message = parseMediaStreamFrame(text)
  if (typeof message === 'string') return message
  const common = readCommonMediaStreamEvent(message)
  if (common !== undefined) return common
  if (message.event !== 'start') return unknownMediaStreamEvent(message)
  const start = message.start
  if (typeof start?.streamSid !== 'string' || typeof start.callSid !== 'string') {
    return 'start without streamSid or callSid'
  }
  const { parameters: customParameters, ignored } = readCustomParameters(start.customParameters)
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
    ...(ignored.length > 0 ? { ignoredParameters: ignored } : {}),
  }
}
