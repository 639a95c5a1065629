// The package's public surface: what an application uses to run calls. Everything else in src/
// (the call's turn-taking, answer runs, frame writing, push streams, metrics helpers) is internal.
export { MicdropServer } from './server/MicdropServer.js'
export { CallServer, type CallInput } from './transport/CallServer.js'
export { VadTurns, type VadTurnsOptions } from './transport/VadTurns.js'
export {
  MediaStreamServer,
  type MediaStreamServerEvents,
  type MediaStreamServerOptions,
} from './transport/phone/MediaStreamServer.js'
export type { DtmfToAgentOptions } from './transport/phone/DtmfDigits.js'
export type {
  MediaStreamCommand,
  MediaStreamMessage,
} from './transport/phone/media-stream-messages.js'
export type { CustomParameters } from './transport/phone/media-stream-wire.js'
export {
  parseMediaStreamFrame,
  readCommonMediaStreamEvent,
  readCustomParameters,
  unknownMediaStreamEvent,
  writeMediaStreamCommand,
} from './transport/phone/media-stream-wire.js'
export type { BargeInVerdict, MicdropServerEvents, MicdropServerOptions } from './server/types.js'
export type { AnswerTimes, TurnClock, TurnTimes } from './metrics/turn-metrics.js'
export type { PlaybackTimes, TurnFailure, TurnOutcome, TurnReport } from './metrics/turn-report.js'
export type { AnswerOutcome } from './call/types.js'
export { waitForParams, type WaitForParamsOptions } from './params/waitForParams.js'
export { holdFrames } from './params/held-frames.js'
export { MicdropError, MicdropErrorCode } from './errors/MicdropError.js'
export { handleError } from './errors/handleError.js'
export { MicdropRecorder } from './recorder/MicdropRecorder.js'
export type {
  MicdropAudioMessage,
  MicdropRecorderEvents,
  MicdropRecording,
} from './recorder/types.js'
export type {
  ConversationRecord,
  ConversationStore,
  StoreCallReport,
  StoreOperation,
} from './store/types.js'
export { ConversationConflictError } from './store/types.js'
export {
  MemoryConversationStore,
  type MemoryConversationStoreOptions,
} from './store/MemoryConversationStore.js'
export {
  MicdropCalls,
  drainOnSignal,
  type DrainOnSignalOptions,
  type DrainOptions,
} from './drain/MicdropCalls.js'
