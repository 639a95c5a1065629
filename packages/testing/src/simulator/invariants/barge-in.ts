import type { CallRecord, Violation } from './call-record.js'
import { handledCommand } from './turns.js'

/**
 * No audio of an answer after the `StartSpeaking` that cancelled it, as the server sends frames:
 * once the server handled `StartSpeaking` or `Mute`, no audio frame of a `speak()` that began
 * before it may be sent, unless the server sent `Resume` since (the answer the client paused
 * plays on; only that one, the last begun when the pause began: speaking again during the pause
 * does not change what it holds).
 */
export function checkBargeIn(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  const reported = new Set<number>()
  let begun = 0
  let cancelledUpTo = 0
  /** The answer a `Resume` may bring back, whether it did, and whether `Interrupt` settled it. */
  let held: { speak: number; resumed: boolean; settled: boolean } | undefined
  let cutAt = 0
  for (const event of record.events) {
    const command = handledCommand(event)
    if (event.type === 'speak') begun = event.speak
    else if (command === 'StartSpeaking' || command === 'Mute') {
      cancelledUpTo = begun
      cutAt = event.at
      const pausing = held !== undefined && !held.resumed && !held.settled
      if (command === 'Mute') held = undefined
      else if (!pausing) held = { speak: begun, resumed: false, settled: false }
    } else if (event.type === 'sent' && event.frame.kind === 'text') {
      if (event.frame.message.type === 'Resume' && held) held.resumed = true
      if (event.frame.message.type === 'Interrupt' && held) held.settled = true
    } else if (event.type === 'sent' && event.frame.kind === 'audio') {
      const { tag } = event.frame
      if (tag > cancelledUpTo || (held?.resumed && held.speak === tag) || reported.has(tag))
        continue
      reported.add(tag)
      violations.push({
        name: 'audio-after-barge-in',
        atMs: event.at,
        message: `Audio of answer ${tag} sent at ${event.at} ms, after the barge-in the server handled at ${cutAt} ms (no Resume).`,
      })
    }
  }
  return violations
}
