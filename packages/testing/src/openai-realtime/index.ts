export {
  createFakeOpenaiRealtime,
  FakeOpenaiRealtime,
  TRANSCRIPTION_MODELS,
} from './FakeOpenaiRealtime.js'
export type {
  FakeOpenaiRealtimeOptions,
  FakeOpenaiTranscriptOptions,
} from './FakeOpenaiRealtime.js'
export { spokenResponse } from './spoken-response.js'
export type { FakeSpokenResponseOptions } from './spoken-response.js'
export type {
  FakeRealtimeCommit,
  FakeRealtimeConnectionRecord,
  FakeRealtimeHandshake,
  FakeRealtimeItem,
  FakeRealtimeResponseRecord,
  FakeRealtimeUsage,
  FakeResponseStep,
  FakeTranscriptionStep,
} from './types.js'
