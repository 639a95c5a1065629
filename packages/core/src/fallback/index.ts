export { FallbackAgent } from './FallbackAgent.js'
export type { FallbackAgentOptions } from './FallbackAgent.js'
