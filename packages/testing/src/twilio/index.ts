/**
 * `@openmic/testing/twilio`: fakes of Twilio for testing a phone voice server. `FakeTwilioCall`
 * plays Twilio's side of a Media Stream in real time; `FakeTwilioApi` answers the REST API calls
 * a server makes (create, update, hang up), checked by the official `twilio` SDK;
 * `twilioWebhookRequest` builds a signed voice webhook.
 */
export { FakeTwilioCall } from './FakeTwilioCall.js'
export type {
  EchoedMark,
  FakeTwilioCallEnd,
  FakeTwilioCallOptions,
  ReceivedTwilioFrame,
  TwilioHangUp,
  TwilioProtocolError,
} from './FakeTwilioCall.js'
export type { CallerUtterance, SayOptions } from '../phone/caller-audio.js'
export type { ClearedAudio, HeardFrame } from '../phone/playback.js'
export { readServerMessage } from './server-message.js'
export type { ReadServerMessage } from './server-message.js'
export { createFakeTwilioApi, FakeTwilioApi } from './FakeTwilioApi.js'
export type {
  FakeTwilioAnswerOptions,
  FakeTwilioApiOptions,
  RecordedTwilioRequest,
  SentStatusCallback,
} from './FakeTwilioApi.js'
export type { FakeTwilioCallRecord, TwilioCallStatus } from './call-resource.js'
export { readTwimlStream } from './twiml-stream.js'
export type { TwimlStream } from './twiml-stream.js'
export type { RecordedRequest } from '../sse-server/types.js'
export { twilioErrorBody } from './rest-errors.js'
export type { TwilioErrorBody } from './rest-errors.js'
export { postTwilioWebhook, twilioWebhookRequest, voiceWebhookParams } from './webhook-request.js'
export type { TwilioWebhookRequest } from './webhook-request.js'
export { twilioSid } from './sids.js'
export { MULAW_SILENCE, TWILIO_FRAME_BYTES, TWILIO_FRAME_MS } from './wire.js'
export type {
  TwilioConnectedMessage,
  TwilioDtmfMessage,
  TwilioMarkMessage,
  TwilioMediaMessage,
  TwilioServerMessage,
  TwilioStartMessage,
  TwilioStopMessage,
  TwilioStreamMessage,
} from './wire.js'
