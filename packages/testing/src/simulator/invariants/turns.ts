import type { MicdropConversationItem } from '@openmic/core/protocol'
import type { LoggedEvent } from '../call-log.js'
import { isAssistant } from './answers.js'
import type { CallRecord, Violation } from './call-record.js'

/**
 * A user turn, as the server saw it: from a `StopSpeaking` it handled to the next `StartSpeaking`
 * or `Mute` it handled, or to the end of the call. Counted in it, from the frames the server sent:
 * `SkipAnswer`s, user `Message`s, and answers (the first audio of a `speak()` not heard of before).
 */
interface Turn {
  stoppedAt: number
  skips: number
  answers: number
  userMessages: number
  /** An earlier turn the user spoke over before it was resolved: this one resolves it too. */
  carries: boolean
}

/**
 * Every user turn ends in an answer or a `SkipAnswer`, never two answers or more skips than it
 * has user messages (one `SkipAnswer` without any: a cough), and no user message is answered
 * twice.
 *
 * A turn the user speaks over before anything resolved it (`StartSpeaking`) hands its due to the
 * next turn: the server joins the two utterances into one user message and answers it once. A
 * turn ended by `Mute` owes nothing (the user paused the call); neither does the last turn of a
 * call the user hung up on, or that the server ended (`EndCall`). A late transcript piece answered after the answer it came behind is
 * two user messages and two answers in one turn: allowed.
 *
 * In the agent's final conversation, no two assistant messages follow each other (a tool item
 * between two messages of one answer keeps them apart): before the first user message, only the
 * greeting.
 */
export function checkTurns(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  const seen = new Set<number>()
  let turn: Turn | undefined
  let owed = false
  const close = (how: 'spoken-over' | 'muted' | 'end', at: number) => {
    if (!turn) return
    const resolved = turn.skips + turn.answers > 0
    const allowed = Math.max(1, turn.userMessages)
    if (turn.skips > allowed) {
      violations.push({
        name: 'extra-skip-answer',
        atMs: turn.stoppedAt,
        message: `The turn from ${turn.stoppedAt} ms got ${turn.skips} SkipAnswer for ${turn.userMessages} user message(s).`,
      })
    }
    if (turn.answers > allowed) {
      violations.push({
        name: 'answered-twice',
        atMs: turn.stoppedAt,
        message: `The turn from ${turn.stoppedAt} ms got ${turn.answers} answers for ${turn.userMessages} user message(s).`,
      })
    }
    owed = !resolved && how === 'spoken-over'
    const exempt =
      how === 'end' && (record.client.hungUpByUser || record.client.endCallAt !== undefined)
    if (!resolved && how === 'end' && !exempt) {
      violations.push({
        name: 'turn-unresolved',
        atMs: turn.stoppedAt,
        message: `The user turn from ${turn.stoppedAt} ms${turn.carries ? ' (and the one it carries)' : ''} got neither an answer nor SkipAnswer by ${at} ms.`,
      })
    }
    turn = undefined
  }
  for (const event of record.events) {
    const command = handledCommand(event)
    if (command === 'StopSpeaking') {
      close('spoken-over', event.at)
      turn = { stoppedAt: event.at, skips: 0, answers: 0, userMessages: 0, carries: owed }
      owed = false
    } else if (command === 'StartSpeaking') {
      close('spoken-over', event.at)
    } else if (command === 'Mute') {
      close('muted', event.at)
      owed = false
    } else if (event.type === 'sent') {
      const { frame } = event
      if (frame.kind === 'audio') {
        if (seen.has(frame.tag)) continue
        seen.add(frame.tag)
        if (turn) turn.answers++
      } else if (turn && frame.message.type === 'SkipAnswer') {
        turn.skips++
      } else if (turn && frame.message.type === 'Message' && frame.message.item.role === 'user') {
        turn.userMessages++
      }
    }
  }
  close('end', record.idle.atMs)
  violations.push(...checkAssistantRuns(record))
  return violations
}

/**
 * Two assistant messages in a row answer one user message twice (or, before the first user
 * message, say more than the greeting). A tool item between them makes them two steps of one
 * answer.
 */
function checkAssistantRuns(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  let previous: MicdropConversationItem | undefined
  for (const item of record.agentConversation) {
    if (isAssistant(item) && previous && isAssistant(previous)) {
      violations.push({
        name: 'answered-twice',
        message: `Two assistant messages in a row in the agent's conversation: "${previous.content}", then "${item.content}".`,
      })
    }
    previous = item
  }
  return violations
}

/** The client command the server handled in `event`, if it is one. */
export function handledCommand(event: LoggedEvent): string | undefined {
  return event.type === 'handled' && event.frame.kind === 'text' ? event.frame.text : undefined
}
