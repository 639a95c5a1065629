import {
  parseMediaStreamFrame,
  readCommonMediaStreamEvent,
  readCustomParameters,
  unknownMediaStreamEvent,
  type MediaStreamMessage,
} from '@openmic/server'
import type { TelnyxStart } from '../TelnyxServer.js'

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
  const { parameters: customParameters, ignored } = readCustomParameters(start.custom_parameters)
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
    ...(ignored.length > 0 ? { ignoredParameters: ignored } : {}),
  }
}
