import twilio from 'twilio'
import { twilioSid } from './sids.js'

/** A webhook request as Twilio sends it: what to give an HTTP client or a handler under test. */
export interface TwilioWebhookRequest {
  url: string
  method: 'POST'
  /** `content-type` (form) and `x-twilio-signature`, lower case as Node gives them. */
  headers: Record<string, string>
  /** The form-encoded body. */
  body: string
  /** The parameters, decoded (what the signature covers with the URL). */
  params: Record<string, string>
}

/**
 * The parameters Twilio posts to a voice webhook for a new incoming call, with `overrides` on
 * top: `CallSid`, `AccountSid`, `From`, `To`, `Caller`, `Called`, `CallStatus` (`ringing`),
 * `Direction` (`inbound`) and `ApiVersion` (`2010-04-01`). SIDs are random unless given.
 */
export function voiceWebhookParams(overrides: Record<string, string> = {}): Record<string, string> {
  const from = overrides.From ?? '+15005550006'
  const to = overrides.To ?? '+15005550001'
  return {
    AccountSid: twilioSid('AC'),
    CallSid: twilioSid('CA'),
    From: from,
    To: to,
    Caller: from,
    Called: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
    ApiVersion: '2010-04-01',
    ...overrides,
  }
}

/**
 * A voice webhook request as Twilio posts it to `url`: the {@link voiceWebhookParams} with
 * `params` on top, form-encoded, signed with the official SDK's `getExpectedTwilioSignature` for
 * `authToken` (the `X-Twilio-Signature` a handler checks with `twilio.validateRequest`). The URL
 * is signed as given: use the public URL the handler believes it is served at.
 *
 * @example
 * const hook = twilioWebhookRequest('https://example.com/twilio/voice', { From: '+33612345678' }, token)
 * const res = await fetch(`${origin}/twilio/voice`, { method: 'POST', headers: hook.headers, body: hook.body })
 */
export function twilioWebhookRequest(
  url: string,
  params: Record<string, string>,
  authToken: string
): TwilioWebhookRequest {
  const all = voiceWebhookParams(params)
  return {
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(authToken, url, all),
    },
    body: new URLSearchParams(all).toString(),
    params: all,
  }
}

/**
 * Posts {@link twilioWebhookRequest} to `target` (default: `url` itself; give the local address
 * when the signed `url` is the public one) with `fetch`.
 */
export async function postTwilioWebhook(
  url: string,
  params: Record<string, string>,
  authToken: string,
  target: string = url
): Promise<Response> {
  const request = twilioWebhookRequest(url, params, authToken)
  return fetch(target, { method: 'POST', headers: request.headers, body: request.body })
}
