export { createFakeElevenLabsTTS, FakeElevenLabsTTS } from './FakeElevenLabsTTS.js'
export { FakeTTSConnection } from './FakeTTSConnection.js'
export { FakeTTSContext } from './FakeTTSContext.js'
export type { FakeElevenLabsTTSOptions, FakeTTSContextReply } from './types.js'
