export { RealtimeAgent } from './RealtimeAgent.js'
export type { RealtimeAgentOptions } from './RealtimeAgent.js'
export { RealtimeModel } from './RealtimeModel.js'
export type { RealtimeModelEvents } from './RealtimeModel.js'
export { RealtimeResponse } from './RealtimeResponse.js'
export type { RealtimeResponseEvents, RealtimeResponseOwner } from './RealtimeResponse.js'
export { RealtimeInput } from './RealtimeInput.js'
export type { RealtimeInputEvents } from './RealtimeInput.js'
export { RealtimeSTT } from './RealtimeSTT.js'
export { RealtimeTTS } from './RealtimeTTS.js'
export { FallbackRealtime } from './FallbackRealtime.js'
export type { FallbackRealtimeOptions } from './FallbackRealtime.js'
export type {
  RealtimeOutput,
  RealtimeRespondOptions,
  RealtimeResponseEnd,
  RealtimeSessionConfig,
  RealtimeToolSpec,
} from './types.js'
