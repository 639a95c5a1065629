export type { Tool } from './Tool.js'
export { getToolSchema, toolJsonSchema } from './tool-schema.js'
export type { ToolJsonSchema } from './tool-schema.js'
export {
  createDefaultTools,
  END_CALL_TOOL_NAME,
  SEMANTIC_TURN_TOOL_NAME,
  IGNORE_USER_NOISE_TOOL_NAME,
  DEFAULT_END_CALL_DESCRIPTION,
  DEFAULT_SEMANTIC_TURN_DESCRIPTION,
  DEFAULT_IGNORE_USER_NOISE_DESCRIPTION,
} from './default-tools.js'
export { ToolCallAssembler } from './tool-call-assembler.js'
export type { ToolCallDelta } from './tool-call-assembler.js'
