export { FakeSseServer } from './FakeSseServer.js'
export type { FakeSseServerOptions, FakeStreamOptions } from './FakeSseServer.js'
export { sseFrame } from './sse-frame.js'
export { splitInChunks } from './play-response.js'
export type {
  FakePart,
  FakeResponse,
  FakeToolCall,
  RecordedRequest,
  SseDialect,
  StreamEncoder,
} from './types.js'
