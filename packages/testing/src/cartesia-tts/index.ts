export { CARTESIA_TTS_PATH, createFakeCartesiaTTS, FakeCartesiaTTS } from './FakeCartesiaTTS.js'
export type { FakeCartesiaTTSConnection } from './FakeCartesiaTTS.js'
export { FakeCartesiaContext } from './FakeCartesiaContext.js'
export type { RecordedGenerationRequest } from './FakeCartesiaContext.js'
export type {
  FakeCartesiaRejection,
  FakeCartesiaTTSOptions,
  FakeCartesiaTTSReply,
} from './types.js'
