export { LocalAgent, LOCAL_AGENT_GREETING } from './LocalAgent.js'
export type { LocalAgentOptions } from './LocalAgent.js'
export { TIME_TOOL_NAME } from './time-tool.js'
export type { TimeToolOutput } from './time-tool.js'
