export { TwilioServer } from './TwilioServer.js'
export type { TwilioServerEvents, TwilioServerOptions, TwilioStart } from './TwilioServer.js'
export { twilioVoiceWebhook } from './http/voice-webhook.js'
export type {
  TwilioVoiceWebhookOptions,
  WebhookRequest,
  WebhookResponse,
} from './http/voice-webhook.js'
export { twilioHangUp } from './http/hang-up.js'
export { twilioCallOut } from './http/outbound-call.js'
export type { TwilioCallOutOptions, TwilioCallStatusEvent } from './http/outbound-call.js'
export { TwilioCallOutError } from './http/call-out-error.js'
export type { TwilioCallOutErrorCode } from './http/call-out-error.js'
