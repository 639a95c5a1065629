import twilio from 'twilio'
import { connectStreamTwiml } from '../twiml/connect-stream.js'

/** A webhook request as any HTTP framework gives it: the full URL Twilio called, headers, raw body. */
export interface WebhookRequest {
  /** The URL Twilio requested, as configured on the number (scheme, host, path, query). */
  url: string
  headers: Record<string, string | string[] | undefined>
  /** The form-encoded body (`application/x-www-form-urlencoded`). */
  body: string
}

export interface WebhookResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface TwilioVoiceWebhookOptions {
  /** The account's auth token: requests whose `X-Twilio-Signature` does not verify get 403. */
  authToken: string
  /** The Media Streams WebSocket URL (`wss://…`), or one computed from the webhook's params. */
  streamUrl: string | ((params: Record<string, string>) => string)
  /** Custom parameters for the stream (they reach `TwilioServer` in `start.customParameters`). */
  parameters?: (params: Record<string, string>) => Record<string, string>
}

/**
 * Answers Twilio's voice webhook with the TwiML that connects the call to a Media Stream
 * (`<Connect><Stream url>` with `<Parameter>`s), after checking the request's signature with the
 * official SDK. Framework-agnostic: give it the URL, headers and raw body; send back what it returns.
 *
 * @example
 * const webhook = twilioVoiceWebhook({ authToken, streamUrl: 'wss://example.com/twilio/stream' })
 * const { status, headers, body } = webhook({ url, headers: req.headers, body: rawBody })
 */
export function twilioVoiceWebhook(
  options: TwilioVoiceWebhookOptions
): (request: WebhookRequest) => WebhookResponse {
  return (request) => {
    const params = Object.fromEntries(new URLSearchParams(request.body))
    const signature = request.headers['x-twilio-signature']
    if (
      typeof signature !== 'string' ||
      !twilio.validateRequest(options.authToken, signature, request.url, params)
    ) {
      return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Invalid signature' }
    }
    const url =
      typeof options.streamUrl === 'function' ? options.streamUrl(params) : options.streamUrl
    const body = connectStreamTwiml(url, options.parameters?.(params))
    return { status: 200, headers: { 'content-type': 'text/xml' }, body }
  }
}
