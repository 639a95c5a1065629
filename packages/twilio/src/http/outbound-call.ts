import twilio from 'twilio'
import type { Twilio } from 'twilio'
import { connectStreamTwiml } from '../twiml/connect-stream.js'
import { TwilioCallOutError } from './call-out-error.js'

/** The call progress events Twilio can post to a `statusCallback`. */
export type TwilioCallStatusEvent = 'initiated' | 'ringing' | 'answered' | 'completed'

/** Options of {@link twilioCallOut}. */
export interface TwilioCallOutOptions {
  /** Who is called, in E.164 (`+33612345678`). */
  to: string
  /** The caller ID: a number of the account (or verified with it), in E.164. */
  from: string
  /**
   * The Media Streams WebSocket the answered call connects to (`wss://…`, where a
   * `TwilioServer` runs). Twilio connects only `wss://` and drops query strings: pass values
   * in `parameters`.
   */
  streamUrl: string
  /** Custom parameters of the stream: `TwilioServer` gets them in `start.customParameters`. */
  parameters?: Record<string, string>
  /** Where Twilio posts the call's progress (by default only its end, `completed`). */
  statusCallback?: string
  /** Which progress events go to `statusCallback` (Twilio's default: `['completed']`). */
  statusCallbackEvent?: TwilioCallStatusEvent[]
  /** Seconds to let the phone ring before giving up (Twilio's default 60, at most 600). */
  timeout?: number
  /** Answering machine detection (`Enable` or `DetectMessageEnd`), off by default. */
  machineDetection?: 'Enable' | 'DetectMessageEnd'
}

/** Twilio's limit on inline TwiML (error 32018 beyond it). */
const MAX_TWIML_CHARS = 4000
const E164 = /^\+[1-9]\d{1,14}$/

/**
 * Places an outbound call through Twilio's REST API (the official SDK's `calls.create`) that,
 * once answered, connects to a Media Stream: the TwiML `<Connect><Stream url><Parameter/>` is
 * sent inline, the same as `twilioVoiceWebhook` answers for an incoming call. Resolves with the
 * call's SID once Twilio queued it (the callee has not answered yet: the stream's `start` tells
 * when they did).
 *
 * Input is checked before any request (numbers in E.164, a `wss://` URL without a query
 * string, TwiML within Twilio's 4 000 characters); every failure, Twilio's refusals included
 * (an invalid number, bad credentials...), is a {@link TwilioCallOutError}.
 *
 * @example
 * const callSid = await twilioCallOut(twilio(accountSid, authToken), {
 *   to: '+33612345678',
 *   from: '+15005550006',
 *   streamUrl: 'wss://voice.example.com/twilio/stream',
 *   parameters: { reason: 'appointment-reminder' },
 * })
 */
export async function twilioCallOut(
  client: Twilio,
  options: TwilioCallOutOptions
): Promise<string> {
  const twiml = callOutTwiml(options)
  try {
    const call = await client.calls.create({
      to: options.to,
      from: options.from,
      twiml,
      statusCallback: options.statusCallback,
      statusCallbackEvent: options.statusCallbackEvent,
      timeout: options.timeout,
      machineDetection: options.machineDetection,
    })
    return call.sid
  } catch (error) {
    throw refusal(error, options.to)
  }
}

/** The call's TwiML, once its input was found valid. */
function callOutTwiml(options: TwilioCallOutOptions): string {
  for (const [field, number] of [
    ['to', options.to],
    ['from', options.from],
  ] as const) {
    if (typeof number !== 'string' || !E164.test(number)) {
      throw new TwilioCallOutError(
        'invalid_number',
        `twilioCallOut: ${field} ${JSON.stringify(number)} is not an E.164 number (+ and up to 15 digits, e.g. +33612345678)`
      )
    }
  }
  checkStreamUrl(options.streamUrl)
  const parameters = options.parameters ?? {}
  for (const [name, value] of Object.entries(parameters)) {
    if (name === '' || typeof value !== 'string') {
      throw new TwilioCallOutError(
        'invalid_twiml',
        `twilioCallOut: parameter ${JSON.stringify(name)} needs a name and a string value`
      )
    }
  }
  const twiml = connectStreamTwiml(options.streamUrl, parameters)
  if (twiml.length > MAX_TWIML_CHARS) {
    throw new TwilioCallOutError(
      'invalid_twiml',
      `twilioCallOut: the TwiML is ${twiml.length} characters, over Twilio's ${MAX_TWIML_CHARS}: pass fewer or shorter parameters`
    )
  }
  return twiml
}

function checkStreamUrl(streamUrl: string) {
  let url: URL | undefined
  try {
    url = new URL(streamUrl)
  } catch {
    url = undefined
  }
  const problem = !url
    ? 'is not a URL'
    : url.protocol !== 'wss:'
      ? 'is not wss:// (Twilio connects Media Streams only over wss)'
      : url.search !== ''
        ? 'has a query string, which Twilio drops: pass the values as parameters'
        : undefined
  if (problem) {
    throw new TwilioCallOutError(
      'invalid_stream_url',
      `twilioCallOut: streamUrl ${JSON.stringify(streamUrl)} ${problem}`
    )
  }
}

/** What the SDK threw, as a {@link TwilioCallOutError}. */
function refusal(error: unknown, to: string): TwilioCallOutError {
  if (error instanceof twilio.RestException) {
    const code = error.code === undefined ? '' : `, error ${error.code}`
    const more = error.moreInfo ? ` (${error.moreInfo})` : ''
    return new TwilioCallOutError(
      'refused',
      `Twilio refused the call to ${to} (HTTP ${error.status}${code}): ${error.message}${more}`,
      { status: error.status, twilioCode: error.code, moreInfo: error.moreInfo, cause: error }
    )
  }
  const reason = error instanceof Error ? error.message : String(error)
  return new TwilioCallOutError(
    'request_failed',
    `The request to Twilio for the call to ${to} failed: ${reason}`,
    { cause: error }
  )
}
