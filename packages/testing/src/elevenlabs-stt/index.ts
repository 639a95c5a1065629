export {
  createFakeElevenLabsSTT,
  FakeElevenLabsSTT,
  ELEVENLABS_STT_PATH,
} from './FakeElevenLabsSTT.js'
export type { FakeScribeTranscriptOptions } from './FakeElevenLabsSTT.js'
export { FakeScribeSession } from './FakeScribeSession.js'
export type { FakeElevenLabsSTTOptions, FakeScribeSessionRecord, FakeScribeStep } from './types.js'
