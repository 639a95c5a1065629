import { checkBargeIn } from './barge-in.js'
import type { CallRecord, Violation } from './call-record.js'
import { checkConversations } from './conversation.js'
import { checkEndCall } from './end-call.js'
import { checkErrors } from './errors.js'
import { checkHeard } from './heard.js'
import { checkIdle } from './idle.js'
import { checkMessageTiming } from './message-timing.js'
import { checkTurns } from './turns.js'

const CHECKS: Array<(record: CallRecord) => Violation[]> = [
  checkTurns,
  checkBargeIn,
  checkMessageTiming,
  checkConversations,
  checkHeard,
  checkEndCall,
  checkIdle,
  checkErrors,
]

/** Every invariant, checked against one finished call: what it breaks, in time order. */
export function checkInvariants(record: CallRecord): Violation[] {
  const violations = CHECKS.flatMap((check) => check(record))
  return violations.sort((a, b) => (a.atMs ?? Infinity) - (b.atMs ?? Infinity))
}
