export { CARTESIA_STT_PATH, createFakeCartesiaSTT, FakeCartesiaSTT } from './FakeCartesiaSTT.js'
export type { FakeCartesiaTranscriptOptions } from './FakeCartesiaSTT.js'
export { FakeCartesiaSTTSession } from './FakeCartesiaSTTSession.js'
export type { FakeCartesiaSTTOptions, FakeCartesiaSTTPart } from './types.js'
