import type { CallRecord, Violation } from './call-record.js'

/** `drain()` of an idle call closes it at once: within a couple of its 25 ms polls at most. */
export const DRAIN_AT_ONCE_MS = 50

/**
 * After the user goes quiet the call is idle again: a minute after the last step, no timer of
 * the call is pending, the client is neither paused nor waiting for an answer, and `drain()`
 * closes the call at once (an idle call has nothing to wait for).
 */
export function checkIdle(record: CallRecord): Violation[] {
  const { idle } = record
  const at = idle.atMs
  const stuck = (message: string): Violation => ({ name: 'stuck', atMs: at, message })
  if (idle.spinning) return [stuck(`The call kept firing timers and never went idle (${at} ms).`)]
  const violations: Violation[] = []
  if (idle.pendingTimers.length > 0) {
    const due = idle.pendingTimers.map(
      (timer) => `${timer.dueAtMs} ms (set for ${timer.delayMs} ms)`
    )
    violations.push(
      stuck(
        `${idle.pendingTimers.length} timer(s) still pending at ${at} ms, a minute after the user's last step: due at ${due.join(', ')}.`
      )
    )
  }
  if (idle.callOpen && idle.clientPaused) {
    violations.push(
      stuck(`At ${at} ms the client still holds a paused answer: no Resume or Interrupt came.`)
    )
  }
  if (idle.callOpen && idle.clientProcessing) {
    violations.push(
      stuck(`At ${at} ms the client still waits for an answer to the user's last turn.`)
    )
  }
  if (idle.drainMs === undefined) {
    violations.push(stuck(`drain() at ${at} ms never resolved.`))
  } else if (idle.drainMs > DRAIN_AT_ONCE_MS) {
    violations.push(
      stuck(
        `drain() at ${at} ms took ${idle.drainMs} ms: the server still counted the call as busy.`
      )
    )
  }
  return violations
}
