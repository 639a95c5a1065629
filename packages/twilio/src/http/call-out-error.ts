/** Why {@link twilioCallOut} placed no call. */
export type TwilioCallOutErrorCode =
  /** `to` or `from` is not an E.164 number (`+` and up to 15 digits). */
  | 'invalid_number'
  /** `streamUrl` is not a `wss://` URL without a query string (Twilio connects only those). */
  | 'invalid_stream_url'
  /** A parameter's name is empty, or the TwiML is over Twilio's 4 000 characters. */
  | 'invalid_twiml'
  /** Twilio's REST API refused the call: see `status`, `twilioCode` and `moreInfo`. */
  | 'refused'
  /** The request did not get an answer from Twilio (network, timeout): see `cause`. */
  | 'request_failed'

/**
 * A call {@link twilioCallOut} did not place. Input errors are found before any request; a
 * refusal from Twilio keeps its HTTP status, its error code (21211: invalid `To`, 20003: bad
 * credentials...) and the page that explains it. The message says all of it, for a log line.
 */
export class TwilioCallOutError extends Error {
  override readonly name = 'TwilioCallOutError'
  /** The HTTP status of Twilio's answer (`refused`). */
  readonly status?: number
  /** Twilio's error code (`refused`), e.g. 21211 for an invalid `To`. */
  readonly twilioCode?: number
  /** Twilio's page about the error (`refused`). */
  readonly moreInfo?: string

  constructor(
    readonly code: TwilioCallOutErrorCode,
    message: string,
    details: { status?: number; twilioCode?: number; moreInfo?: string; cause?: unknown } = {}
  ) {
    super(message, { cause: details.cause })
    this.status = details.status
    this.twilioCode = details.twilioCode
    this.moreInfo = details.moreInfo
  }
}
