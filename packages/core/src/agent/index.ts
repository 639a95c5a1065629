export { Agent } from './Agent.js'
export { AnswerStream } from './AnswerStream.js'
export { AGENT_EVENT_NAMES } from './types.js'
export type { AgentOptions, AgentEvents } from './types.js'
