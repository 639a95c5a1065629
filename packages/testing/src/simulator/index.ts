// @openmic/testing/simulator: whole voice calls against a real MicdropServer, on virtual time.
export { simulateCall } from './simulate-call.js'
export type {
  AnswerReport,
  SimulateCallOptions,
  SimulatedParts,
  SimulationResult,
} from './simulate-call.js'
export { formatFailure } from './format-failure.js'
export type { CallScript, ScriptedAnswer, ScriptedTranscript, UserStep } from './script.js'
export type { Violation, ViolationName } from './invariants/call-record.js'
export type { TimelineEntry } from './timeline.js'
export { randomScript } from './random-script.js'
export type { RandomScriptOptions } from './random-script.js'
export { shrinkScript } from './shrink-script.js'
export type { ShrinkOptions } from './shrink-script.js'
