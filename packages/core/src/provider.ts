/**
 * `@openmic/core/provider`: what a provider package needs to implement an agent on core's shared
 * step loop (`Agent.streamModelAnswer`): the model-call contract, the event-stream mapper, tool-call
 * assembly, the tools' JSON schema and the rules every provider follows (error classification for
 * the one retry loop, no tools on the first answer). Applications do not need it.
 */
export type {
  ModelStreamPart,
  ModelCall,
  ModelCallRequest,
  ModelAnswerLimits,
} from './model/types.js'
export { DEFAULT_MODEL_ANSWER_LIMITS } from './model/types.js'
export type { ModelUsage } from './telemetry/reports.js'
export { ModelEventStream } from './model/model-event-stream.js'
export type { EmitPart, ModelEventMapper } from './model/model-event-stream.js'
export { ToolCallAssembler } from './tools/tool-call-assembler.js'
export type { ToolCallDelta } from './tools/tool-call-assembler.js'
export { toolJsonSchema } from './tools/tool-schema.js'
export type { ToolJsonSchema } from './tools/tool-schema.js'
export { shouldSendTools } from './tools/should-send-tools.js'
export {
  errorStatus,
  isRetryableError,
  isRetryableStreamCode,
  errorRetryAfterMs,
  retryAfterFromHeaders,
  MAX_RETRY_AFTER_MS,
} from './retry/errors.js'
export { Resampler } from './speech/Resampler.js'
export { encodeMulaw, decodeMulaw } from './speech/mulaw.js'
export { followStream, followText } from './speech/follow-stream.js'
export type { StreamHandlers } from './speech/follow-stream.js'
export { UtteranceQueue, isSilent } from './speech/UtteranceQueue.js'
export type { QueuedUtterance, UtteranceAudio } from './speech/UtteranceQueue.js'
export type { ResamplerOptions, SampleFormat } from './speech/Resampler.js'
export { SentenceSplitter } from './speech/SentenceSplitter.js'
export { speakable } from './speech/speakable.js'
export { SentenceTTS } from './speech/SentenceTTS.js'
export type { SentenceTTSOptions } from './speech/SentenceTTS.js'
export { JsonSocket, describeSocketEnd, socketEndError } from './socket/JsonSocket.js'
export { errorBodyMessage } from './socket/error-body-message.js'
export { webSocketURL } from './socket/web-socket-url.js'
export type {
  ProviderConnectionEvents,
  ProviderConnectionOptions,
} from './socket/provider-connection.js'
export type { JsonSocketEnd, JsonSocketOptions, WebSocketLike } from './socket/JsonSocket.js'
export { readRefusedUpgrade } from './socket/refused-upgrade.js'
export type { RefusedUpgrade, UpgradeRefusal } from './socket/refused-upgrade.js'
export type { ProviderErrorDetails } from './retry/ProviderError.js'
export { StreamingSTT } from './stt/StreamingSTT.js'
export type {
  StreamingAudio,
  StreamingConnection,
  StreamingWire,
  StreamingSTTOptions,
  StreamingUtterance,
} from './stt/StreamingSTT.js'
export { Pcm16Aligner } from './speech/Pcm16Aligner.js'
export { MICDROP_AUDIO_FORMAT, audioBytes, audioMs } from './protocol/commands.js'
