export { TelnyxServer } from './TelnyxServer.js'
export type { TelnyxServerEvents, TelnyxServerOptions, TelnyxStart } from './TelnyxServer.js'
export { telnyxHangUp } from './http/hang-up.js'
export { telnyxStreamingOptions, type TelnyxStreamingOptions } from './http/streaming-options.js'
export { telnyxWebhook } from './http/webhook.js'
export type {
  TelnyxWebhookEvent,
  TelnyxWebhookOptions,
  TelnyxWebhookRequest,
  TelnyxWebhookVerdict,
} from './http/webhook.js'
