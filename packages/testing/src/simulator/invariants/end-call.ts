import type { CallRecord, Violation } from './call-record.js'

/**
 * `EndCall` comes after the goodbye was heard: when the client gets it, what is left of the
 * goodbye to play is at most `bounds.endCallMs` (its prebuffer: the server reckons playback from
 * when it sent the audio); none when the goodbye was cut. No audio of the goodbye is sent after
 * it. And once the agent ended the call, `EndCall` does come (unless the user hung up first).
 */
export function checkEndCall(record: CallRecord): Violation[] {
  const ended = record.events.find(
    (event) => event.type === 'agent' && event.what === 'end-call' && !takenBack(record, event)
  )
  if (!ended || ended.type !== 'agent') return []
  const goodbye = ended.speak
  const { endCallAt, endCallRemainingMs, hungUpByUser } = record.client
  if (endCallAt === undefined) {
    if (hungUpByUser) return []
    return [
      {
        name: 'end-call-missing',
        atMs: ended.at,
        message: `The agent ended the call at ${ended.at} ms; the client never got EndCall.`,
      },
    ]
  }
  const violations: Violation[] = []
  if ((endCallRemainingMs ?? 0) > record.bounds.endCallMs) {
    violations.push({
      name: 'end-call-early',
      atMs: endCallAt,
      message: `EndCall reached the client at ${endCallAt} ms with ${endCallRemainingMs} ms of the goodbye (answer ${goodbye}) still to play (at most ${record.bounds.endCallMs} ms allowed).`,
    })
  }
  const sent = record.events.find(
    (event) =>
      event.type === 'sent' && event.frame.kind === 'text' && event.frame.message.type === 'EndCall'
  )
  const late =
    sent &&
    record.events.find(
      (event) =>
        event.seq > sent.seq &&
        event.type === 'sent' &&
        event.frame.kind === 'audio' &&
        event.frame.tag <= goodbye
    )
  if (late) {
    violations.push({
      name: 'end-call-early',
      atMs: late.at,
      message: `Audio of the goodbye (answer ${goodbye}) was sent at ${late.at} ms, after EndCall (${sent!.at} ms).`,
    })
  }
  return violations
}

/**
 * A preemptive answer's `end_call` that the user spoke on through (`ResumeSpeaking` after it,
 * before any audio of that answer went): the answer was dropped, the call goes on.
 */
function takenBack(record: CallRecord, ended: CallRecord['events'][number]): boolean {
  if (ended.type !== 'agent') return false
  const after = record.events.slice(record.events.indexOf(ended))
  for (const event of after) {
    if (event.type === 'sent' && event.frame.kind === 'audio' && event.frame.tag === ended.speak) {
      return false
    }
    if (event.type === 'handled' && event.frame.kind === 'text') {
      if (event.frame.text === 'ResumeSpeaking') return true
    }
  }
  return false
}
