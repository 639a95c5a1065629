import { BYTES_PER_MS } from '../audio-tags.js'
import type { LoggedEvent } from '../call-log.js'
import type { CallRecord } from './call-record.js'

/**
 * Audio a client played that was on its way when the user barged in (ms, by answer): sent before
 * the server handled the `StartSpeaking`, received after the client sent it, and played because
 * the user had stopped speaking by then. Micdrop's protocol has nothing to tell that audio from the
 * next answer's, so its client plays it, and the server, which cut the answer at the barge-in,
 * cannot know it was heard. openmic's client discards it until the server settles the barge-in,
 * except for a barge-in made before the server's `Hello` reached it (in the call's first round
 * trip): it cannot know yet that the server settles it.
 */
export function playedInFlight(record: CallRecord): Map<number, number> {
  const played = new Map<number, number>()
  const { events } = record
  const helloAt =
    record.client.kind === 'micdrop'
      ? Infinity
      : (events.find(
          (event) =>
            event.type === 'received' &&
            event.frame.kind === 'text' &&
            event.frame.message.type === 'Hello'
        )?.seq ?? Infinity)
  const bargeIns = bargeInsOf(events).filter(({ startSeq }) => startSeq < helloAt)
  if (bargeIns.length === 0) return played
  // Each audio frame received, with the frame the server sent (both sides keep their order)
  const sent = events.filter((event) => event.type === 'sent' && event.frame.kind === 'audio')
  let next = 0
  for (const [index, event] of events.entries()) {
    if (event.type !== 'received' || event.frame.kind !== 'audio') continue
    const sentEvent = sent[next++]
    if (!sentEvent || wasDropped(events, index)) continue
    const across = bargeIns.some(
      ({ startSeq, handledSeq }) => startSeq < event.seq && sentEvent.seq < handledSeq
    )
    if (!across) continue
    const { tag, bytes } = event.frame
    played.set(tag, (played.get(tag) ?? 0) + bytes / BYTES_PER_MS)
  }
  return played
}

/** Each barge-in: when the client sent `StartSpeaking` (the user started), when the server handled it. */
function bargeInsOf(events: LoggedEvent[]): Array<{ startSeq: number; handledSeq: number }> {
  const starts = events.filter((event) => event.type === 'user' && event.what === 'start')
  const handled = events.filter(
    (event) =>
      event.type === 'handled' &&
      event.frame.kind === 'text' &&
      event.frame.text === 'StartSpeaking'
  )
  return starts.flatMap((start, index) => {
    const at = handled[index]
    return at ? [{ startSeq: start.seq, handledSeq: at.seq }] : []
  })
}

/** The client dropped the frame received at `index` as it arrived (it says so at once). */
function wasDropped(events: LoggedEvent[], index: number): boolean {
  const received = events[index]!
  for (let next = index + 1; next < events.length; next++) {
    const event = events[next]!
    if (event.at !== received.at || event.type === 'received') return false
    if (event.type === 'client' && event.action === 'drop-incoming') return true
  }
  return false
}
