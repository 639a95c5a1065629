import type { ServerResponse } from 'node:http'

/**
 * Twilio's REST error body: `{ code, message, more_info, status }`, what the SDK's
 * `RestException` reads (`status`, `code`, `moreInfo`).
 */
export interface TwilioErrorBody {
  code: number
  message: string
  more_info: string
  status: number
}

export function twilioErrorBody(status: number, code: number, message: string): TwilioErrorBody {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }
}

/** The errors the fake answers, with Twilio's codes. */
export const TWILIO_ERRORS = {
  /** Bad or missing credentials. */
  authenticate: () => twilioErrorBody(401, 20003, 'Authenticate'),
  notFound: (path: string) =>
    twilioErrorBody(404, 20404, `The requested resource ${path} was not found`),
  missingTo: () => twilioErrorBody(400, 21201, "No 'To' number is specified"),
  missingFrom: () => twilioErrorBody(400, 21213, "No 'From' number is specified"),
  invalidTo: (to: string) =>
    twilioErrorBody(400, 21211, `The 'To' number ${to} is not a valid phone number.`),
  invalidFrom: (from: string) =>
    twilioErrorBody(
      400,
      21212,
      `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`
    ),
  twimlTooLong: () =>
    twilioErrorBody(400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters'),
  missingUrl: () =>
    twilioErrorBody(400, 21205, 'Url parameter is required (or Twiml, or ApplicationSid).'),
  notInProgress: () => twilioErrorBody(400, 21220, 'Call is not in-progress. Cannot redirect.'),
  badStatus: (status: string) =>
    twilioErrorBody(400, 20001, `Invalid Status ${JSON.stringify(status)}: completed or canceled`),
} as const

export function sendTwilioJson(res: ServerResponse, status: number, body: unknown): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (status === 401) headers['www-authenticate'] = 'Basic realm="Twilio API"'
  res.writeHead(status, headers)
  res.end(JSON.stringify(body))
}
