import type { MediaStreamCommand, MediaStreamMessage } from './media-stream-messages.js'

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** A carrier's text frame parsed: the JSON object, or what was wrong with it. */
export function parseMediaStreamFrame(text: string): Record<string, any> | string {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return `not JSON: ${text.slice(0, 80)}`
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return 'not an object'
  }
  return message as Record<string, any>
}

/**
 * Reads the events that Twilio and Telnyx spell the same: `connected`, `stop`, `media` (a base64
 * `media.payload`), `dtmf` (`dtmf.digit`) and `mark` (`mark.name`). A string says what was wrong;
 * `undefined` is any other event, for the carrier to read (its `start`...).
 */
export function readCommonMediaStreamEvent(
  message: Record<string, any>
): MediaStreamMessage<never> | string | undefined {
  switch (message.event) {
    case 'connected':
    case 'stop':
      return { event: message.event }
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
      return undefined
  }
}

/** A `start`'s custom parameters, read: the string ones, and what was wrong with the others. */
export interface CustomParameters {
  parameters: Record<string, string>
  /** Each parameter left out, said for a log line (e.g. `the custom parameter "n": a number`). */
  ignored: string[]
}

/**
 * Reads the custom parameters of a `start` (Twilio's `customParameters`, Telnyx's
 * `custom_parameters`): an object of strings. Whatever is not a string is left out and said in
 * `ignored`, so that a call whose webhook passed something else is answered without it, and logged.
 */
export function readCustomParameters(value: unknown): CustomParameters {
  if (value === undefined || value === null) return { parameters: {}, ignored: [] }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { parameters: {}, ignored: [`the custom parameters: ${kindOf(value)}, not an object`] }
  }
  const parameters: Record<string, string> = {}
  const ignored: string[] = []
  for (const [name, parameter] of Object.entries(value)) {
    if (typeof parameter === 'string') parameters[name] = parameter
    else
      ignored.push(
        `the custom parameter ${JSON.stringify(name)}: ${kindOf(parameter)}, not a string`
      )
  }
  return { parameters, ignored }
}

/** What a JSON value is, for a log line: `a number`, `an array`, `null`... */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** What an event the carrier does not have is logged as. */
export function unknownMediaStreamEvent(message: Record<string, any>): string {
  return `unknown event ${JSON.stringify(String(message.event)).slice(0, 40)}`
}

/**
 * A command as the carriers' shared wire spells it (`media.payload`, `mark.name`, `clear`), with
 * the carrier's own fields (`streamId`: Twilio's `{ streamSid }`) after `event`.
 */
export function writeMediaStreamCommand(
  command: MediaStreamCommand,
  streamId: Record<string, string> = {}
): string {
  switch (command.event) {
    case 'media':
      return JSON.stringify({ event: 'media', ...streamId, media: { payload: command.payload } })
    case 'mark':
      return JSON.stringify({ event: 'mark', ...streamId, mark: { name: command.name } })
    case 'clear':
      return JSON.stringify({ event: 'clear', ...streamId })
  }
}
