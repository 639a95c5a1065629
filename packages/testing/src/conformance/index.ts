export { describeAgentConformance } from './describeAgentConformance.js'
export type { AgentConformanceOptions } from './describeAgentConformance.js'
export { fakeResponsesOf } from './fake-responses-of.js'
export type { ConformanceAnswer, ConformanceSetup, MakeConformanceAgent } from './types.js'
