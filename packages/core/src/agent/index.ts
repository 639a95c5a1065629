export { Agent } from './Agent.js'
export { AnswerStream } from './AnswerStream.js'
export type { AgentOptions, AgentEvents } from './types.js'
