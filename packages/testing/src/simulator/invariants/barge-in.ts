import type { CallRecord, Violation } from './call-record.js'
import { handledCommand } from './turns.js'

/**
 * No audio of an answer after the `StartSpeaking` that cancelled it, as the server sends frames:
 * once the server handled `StartSpeaking` or `Mute`, no audio frame of a `speak()` that began
 * before it may be sent, unless the server sent `Resume` since that `StartSpeaking` (the answer
 * the client paused plays on; only that one, the last begun).
 */
export function checkBargeIn(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  const reported = new Set<number>()
  let begun = 0
  let cancelledUpTo = 0
  /** The answer a `Resume` may bring back, and whether it did. */
  let held: { speak: number; resumed: boolean } | undefined
  let cutAt = 0
  for (const event of record.events) {
    const command = handledCommand(event)
    if (event.type === 'speak') begun = event.speak
    else if (command === 'StartSpeaking' || command === 'Mute') {
      cancelledUpTo = begun
      cutAt = event.at
      held = command === 'StartSpeaking' ? { speak: begun, resumed: false } : undefined
    } else if (event.type === 'sent' && event.frame.kind === 'text') {
      if (event.frame.message.type === 'Resume' && held) held.resumed = true
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
