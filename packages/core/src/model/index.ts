export type {
  ModelStreamPart,
  ModelCall,
  ModelCallRequest,
  ModelAnswerLimits,
  ModelAnswerHost,
} from './types.js'
export { DEFAULT_MODEL_ANSWER_LIMITS } from './types.js'
export { ModelEventStream } from './model-event-stream.js'
export type { EmitPart, ModelEventMapper } from './model-event-stream.js'
export { runModelAnswer } from './run-model-answer.js'
