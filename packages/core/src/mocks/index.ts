export { MockAgent } from './MockAgent.js'
export type { MockAgentOptions, MockAnswer } from './MockAgent.js'
