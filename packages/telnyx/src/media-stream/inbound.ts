import {
  parseMediaStreamFrame,
  readCommonMediaStreamEvent,
  unknownMediaStreamEvent,
  type MediaStreamMessage,
} from '@openmic/server'
import type { TelnyxStart } from '../TelnyxServer.js'

/** The custom parameters of `start`: an object of strings (anything else is left out). */
function readParameters(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  )
}

/** Reads one text frame of Telnyx's media streaming; a string says what was wrong with it. */
export function readTelnyxMessage(text: string): MediaStreamMessage<TelnyxStart> | string {
  const message = parseMediaStreamFrame(text)
  if (typeof message === 'string') return message
  const common = readCommonMediaStreamEvent(message)
  if (common !== undefined) return common
  if (message.event === 'error') {
    const error = JSON.stringify(message.payload ?? message.error ?? {}).slice(0, 200)
    return `error from Telnyx: ${error}`
  }
  if (message.event !== 'start') return unknownMediaStreamEvent(message)
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
