export {
  createFakeMistralRealtime,
  FakeMistralRealtime,
  MISTRAL_REALTIME_PATH,
} from './FakeMistralRealtime.js'
export type { FakeMistralTranscriptOptions } from './FakeMistralRealtime.js'
export { FakeRealtimeSession } from './FakeRealtimeSession.js'
export type { RecordedClientMessage } from './FakeRealtimeSession.js'
export type {
  FakeMistralRealtimeOptions,
  FakeTranscriptionPart,
  FakeUpgradeRejection,
} from './types.js'
