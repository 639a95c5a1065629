/**
 * `@openmic/testing/telnyx`: fakes of Telnyx for testing a phone voice server. `FakeTelnyxCall`
 * plays Telnyx's side of a bidirectional media stream in real time (on the shared
 * `FakePhoneCall`); `FakeTelnyxApi` answers the Call Control hang-up a server makes;
 * `telnyxWebhookRequest` signs a webhook as Telnyx does.
 */
export { FakeTelnyxCall } from './FakeTelnyxCall.js'
export type { FakeTelnyxCallOptions } from './FakeTelnyxCall.js'
export { createFakeTelnyxApi, FakeTelnyxApi } from './FakeTelnyxApi.js'
export type {
  FakeTelnyxApiOptions,
  FakeTelnyxCallRecord,
  RecordedTelnyxRequest,
} from './FakeTelnyxApi.js'
export {
  createTelnyxWebhookKeys,
  telnyxCallInitiatedEvent,
  telnyxWebhookRequest,
} from './webhook-request.js'
export type {
  TelnyxWebhookKeys,
  SignedTelnyxWebhook,
  SignedTelnyxWebhookOptions,
} from './webhook-request.js'
export type {
  TelnyxConnectedMessage,
  TelnyxDtmfMessage,
  TelnyxMarkMessage,
  TelnyxMediaMessage,
  TelnyxStartMessage,
  TelnyxStopMessage,
  TelnyxStreamMessage,
} from './wire.js'
