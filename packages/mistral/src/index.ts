export { MistralAgent } from './MistralAgent.js'
export { DEFAULT_MISTRAL_MODEL } from './types.js'
export type { MistralAgentOptions, MistralChatSettings } from './types.js'
export {
  convertToMistralMessages,
  BRIDGE_ASSISTANT_CONTENT,
  SILENT_USER_CONTENT,
} from './convert/convert-to-mistral-messages.js'
export { prepareMistralTools } from './convert/prepare-mistral-tools.js'
export { toMistralToolCallId } from './convert/mistral-tool-call-id.js'
export type { MistralChatRequest, MistralMessage, MistralTool } from './convert/types.js'
export { mapMistralStream } from './stream/map-mistral-stream.js'
export { MistralStreamError } from './errors/mistral-stream-error.js'
export { toAgentError, retryAfterMs, MAX_RETRY_AFTER_MS } from './errors/http-error.js'
export type { MistralHttpError } from './errors/http-error.js'
