export {
  createFakeOpenaiRealtime,
  FakeOpenaiRealtime,
  TRANSCRIPTION_MODELS,
} from './FakeOpenaiRealtime.js'
export type {
  FakeOpenaiRealtimeOptions,
  FakeOpenaiTranscriptOptions,
} from './FakeOpenaiRealtime.js'
export type {
  FakeRealtimeCommit,
  FakeRealtimeConnectionRecord,
  FakeRealtimeHandshake,
  FakeTranscriptionStep,
} from './types.js'
