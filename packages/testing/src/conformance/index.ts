export { describeAgentConformance } from './describeAgentConformance.js'
export type { AgentConformanceOptions } from './describeAgentConformance.js'
export { fakeResponsesOf } from './fake-responses-of.js'
export type { ConformanceAnswer, ConformanceSetup, MakeConformanceAgent } from './types.js'
export type { FakeResponse, FakePart, FakeToolCall, FakeUsage } from '../sse-server/types.js'
export { describeSTTConformance } from './describeSTTConformance.js'
export { scriptFakeSTT } from './fake-stt-script.js'
export type { ScriptableFakeSTT } from './fake-stt-script.js'
export type {
  STTConformanceOptions,
  STTConformanceSetup,
  STTConformanceUtterance,
} from './stt-types.js'
export { describeTTSConformance } from './describeTTSConformance.js'
export type {
  TTSConformanceOptions,
  TTSConformanceSetup,
  TTSConformanceSpeak,
} from './tts-types.js'
export type { SpeechConformanceTiming } from './speech-kit.js'
export { describeSameConversation } from './describeSameConversation.js'
export type { ConversationAgent, MakeConversationAgent } from './describeSameConversation.js'
export { describeRealtimeConformance } from './describeRealtimeConformance.js'
export type {
  RealtimeConformanceOptions,
  RealtimeConformanceSetup,
  RealtimeConformanceStep,
} from './realtime-types.js'
