import { heardUntil } from '../playback.js'
import { heardWordCount, isAssistant, matchAnswers } from './answers.js'
import type { CallRecord, Violation } from './call-record.js'
import { playedInFlight } from './in-flight.js'
import { handledCommand } from './turns.js'

/**
 * An assistant `Message` reaches the client no later than the audio of its answer was played by
 * that client (or stopped), plus `bounds.messageMs`; so the next answer is never held behind a
 * cut one. With a Micdrop client the `Message` goes when the answer starts playing (its first
 * audio sent and the agent's item saved, once the client sent a frame), so it must arrive within
 * the same bound of that.
 *
 * Only answers whose message must exist are checked: some of their words were heard (not counting
 * what a Micdrop client played of audio on its way at a barge-in, see {@link playedInFlight}).
 */
export function checkMessageTiming(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  /** When each answer's first message reached the client. */
  const arrivals = new Map<number, number>()
  const matched = matchAnswers(
    record.clientItems.map((received) => received.item),
    record
  )
  for (const received of record.clientItems) {
    const speak = isAssistant(received.item) ? matched.get(received.item) : undefined
    if (speak !== undefined && !arrivals.has(speak)) arrivals.set(speak, received.at)
  }
  const { messageMs } = record.bounds
  const inFlight = playedInFlight(record)
  for (const spoken of record.spoken) {
    const playback = record.playback.get(spoken.speak)
    const until = playback && heardUntil(playback)
    // What the server could know was heard: not audio played past a barge-in it handled
    const knownMs = (playback?.playedMs ?? 0) - (inFlight.get(spoken.speak) ?? 0)
    if (!playback || until === undefined || heardWordCount(spoken.text, knownMs) === 0) continue
    // An answer that pauses (its agent calls a tool) and goes on is not over when its first part
    // has played: it is once its production ended too (or the server cut it)
    const producedAt = record.events.find(
      (event) => event.type === 'speak-end' && event.speak === spoken.speak
    )?.at
    const over = Math.max(until, producedAt ?? record.client.closedAt ?? Infinity)
    if (over === Infinity) continue
    let deadline = over + messageMs
    let rule =
      over > until
        ? `its production ended at ${over} ms`
        : `the client stopped hearing it at ${until} ms`
    const starts =
      record.client.kind === 'micdrop' ? playingStartOf(record, spoken.speak) : undefined
    if (starts !== undefined && starts + messageMs < deadline) {
      deadline = starts + messageMs
      rule = `it started playing (audio sent and the item saved) at ${starts} ms`
    }
    const arrived = arrivals.get(spoken.speak)
    if (arrived !== undefined && arrived <= deadline) continue
    // Nothing reaches a client that has left.
    if (arrived === undefined && (record.client.closedAt ?? Infinity) <= deadline) continue
    violations.push({
      name: 'message-late',
      atMs: arrived ?? deadline,
      message:
        arrived === undefined
          ? `The assistant Message of answer ${spoken.speak} never reached the client (${rule}; due by ${deadline} ms).`
          : `The assistant Message of answer ${spoken.speak} reached the client at ${arrived} ms; ${rule}, so it was due by ${deadline} ms (bound ${messageMs} ms).`,
    })
  }
  return violations
}

/**
 * When the server should send an answer's message to a Micdrop client: once its first audio was
 * sent and the agent saved it, if that was before the server handled a barge-in on it.
 */
function playingStartOf(record: CallRecord, speak: number): number | undefined {
  let begun = false
  let firstAudio: number | undefined
  let saved: number | undefined
  for (const event of record.events) {
    if (event.type === 'speak' && event.speak === speak) begun = true
    if (!begun) {
      if (event.type === 'agent' && event.what === 'saved' && event.speak === speak)
        saved ??= event.at
      continue
    }
    const command = handledCommand(event)
    if (command === 'StartSpeaking' || command === 'Mute') break
    if (event.type === 'sent' && event.frame.kind === 'audio' && event.frame.tag === speak) {
      firstAudio ??= event.at
    }
    if (event.type === 'agent' && event.what === 'saved' && event.speak === speak)
      saved ??= event.at
    if (event.type === 'speak' && event.speak > speak) break
  }
  if (firstAudio === undefined || saved === undefined) return undefined
  // Until the client sent a frame, the server cannot tell it from openmic's (which says `Hello`
  // first and takes each answer once heard): the message then waits to be final
  const known = record.events.find((event) => event.type === 'handled')?.at
  if (known === undefined) return undefined
  return Math.max(firstAudio, saved, known)
}
