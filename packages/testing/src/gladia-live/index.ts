export { createFakeGladiaLive, FakeGladiaLive, GLADIA_LIVE_PATH } from './FakeGladiaLive.js'
export type { FakeGladiaTranscriptOptions } from './FakeGladiaLive.js'
export { FakeGladiaSession } from './FakeGladiaSession.js'
export type { FakeGladiaClientMessage } from './FakeGladiaSession.js'
export type {
  FakeGladiaInitRequest,
  FakeGladiaLiveOptions,
  FakeGladiaPart,
  FakeGladiaRejection,
} from './types.js'
