/**
 * `@openmic/testing/phone`: what the carriers' fakes share (`FakePhoneCall`: caller audio in real
 * time, playback at real-time pace, marks echoed once played, `clear`) and the phone line
 * conformance suite every carrier's server passes.
 */
export { FakePhoneCall } from './FakePhoneCall.js'
export type {
  EchoedMark,
  FakePhoneCallEnd,
  FakePhoneConnectOptions,
  PhoneHangUp,
  PhoneProtocolError,
  ReceivedPhoneFrame,
} from './FakePhoneCall.js'
export type { CallerUtterance, SayOptions } from './caller-audio.js'
export type { ClearedAudio, HeardFrame } from './playback.js'
export { MULAW_SILENCE, PHONE_FRAME_BYTES, PHONE_FRAME_MS, readPhoneServerMessage } from './wire.js'
export type { PhoneServerMessage, ReadPhoneServerMessage } from './wire.js'
export { describePhoneConformance } from './describePhoneConformance.js'
export type {
  AnyMediaStreamServer,
  PhoneConformanceHangUpApi,
  PhoneConformanceOptions,
} from './describePhoneConformance.js'
