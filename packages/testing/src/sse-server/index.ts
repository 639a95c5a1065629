export { FakeSseServer } from './FakeSseServer.js'
export type { FakeSseServerOptions, FakeStreamOptions } from './FakeSseServer.js'
export { sseFrame } from './sse-frame.js'
export { splitInChunks } from './play-response.js'
export { DEFAULT_FAKE_USAGE } from './types.js'
export type {
  FakePart,
  FakeUsage,
  FakeResponse,
  FakeToolCall,
  RecordedRequest,
  SseDialect,
  StreamEncoder,
} from './types.js'
