export {
  createFakeOpenaiRealtime,
  FakeOpenaiRealtime,
  TRANSCRIPTION_MODELS,
} from './FakeOpenaiRealtime.js'
export type { FakeOpenaiRealtimeOptions, FakeTranscriptOptions } from './FakeOpenaiRealtime.js'
export type {
  FakeRealtimeCommit,
  FakeRealtimeConnectionRecord,
  FakeRealtimeHandshake,
  FakeTranscriptionStep,
} from './types.js'
