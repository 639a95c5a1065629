import type { MicdropConversationItem } from '@openmic/core/protocol'
import type { LoggedEvent } from '../call-log.js'
import { isAssistant, matchAnswers } from './answers.js'
import type { CallRecord, Violation } from './call-record.js'

/**
 * A user turn, as the server saw it: from a `StopSpeaking` it handled to the next `StartSpeaking`
 * or `Mute` it handled, or to the end of the call. Counted in it: the `SkipAnswer`s and answers
 * the server sent (an answer: the first audio of a `speak()` not heard of before), and the user
 * messages it made final (their frame may wait for a slow store past the end of the call).
 */
interface Turn {
  stoppedAt: number
  /** `SkipAnswer`s before the turn had a user message (no words yet: one at most)... */
  wordlessSkips: number
  /** ...and after (at most one per user message). */
  skips: number
  answers: number
  /** The `speak()` numbers of its answers. */
  speaks: number[]
  userMessages: number
  /** An earlier turn the user spoke over before it was resolved: this one resolves it too. */
  carries: boolean
  /**
   * User messages made final while no turn was open (the user speaking, or muted): this turn
   * may answer them too.
   */
  carriedMessages: number
}

/**
 * Every user turn ends in an answer or a `SkipAnswer`, never two answers or more skips than it
 * has user messages (and one `SkipAnswer` before it has any: a cough, or a transcript that did
 * not come in time and, coming later, is answered), and no user message is answered twice.
 *
 * A turn the user speaks over before anything resolved it (`StartSpeaking`) hands its due to the
 * next turn: the server joins the two utterances into one user message and answers it once. A
 * turn ended by `Mute` owes nothing (the user paused the call); neither does the last turn of a
 * call the user hung up on, or that the server ended (`EndCall`). A user message made final while
 * no turn was open (muted, or speaking), or whose turn kept no answer (cut before a word of it was
 * heard, skipped after an agent failure or an unfinished sentence), may be answered in the next
 * turn, beside that turn's own.
 * A late transcript piece answered after the answer it came behind is two user messages and two
 * answers in one turn: allowed.
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
  /** User messages made final while no turn was open, for the next turn. */
  let loose = 0
  /** The answers the conversation kept something of. */
  const kept = new Set(matchAnswers(record.agentConversation, record).values())
  const close = (how: 'spoken-over' | 'muted' | 'end', at: number) => {
    if (!turn) return
    const resolved = turn.wordlessSkips + turn.skips + turn.answers > 0
    const allowed = Math.max(1, turn.userMessages + turn.carriedMessages)
    if (turn.wordlessSkips > 1 || turn.skips > turn.userMessages) {
      violations.push({
        name: 'extra-skip-answer',
        atMs: turn.stoppedAt,
        message: `The turn from ${turn.stoppedAt} ms got ${turn.wordlessSkips + turn.skips} SkipAnswer for ${turn.userMessages} user message(s).`,
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
    // Its messages no answer of it kept anything for are the next turn's to answer: spoken over
    // before anything resolved them (the server joins them), cut before a word was heard, or
    // skipped (an agent failure, an unfinished sentence)
    const answered = turn.speaks.filter((speak) => kept.has(speak)).length
    loose += Math.max(0, turn.userMessages + turn.carriedMessages - answered)
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
      turn = {
        stoppedAt: event.at,
        wordlessSkips: 0,
        skips: 0,
        answers: 0,
        speaks: [],
        userMessages: 0,
        carries: owed,
        carriedMessages: loose,
      }
      loose = 0
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
        if (turn) {
          turn.answers++
          turn.speaks.push(frame.tag)
        }
      } else if (turn && frame.message.type === 'SkipAnswer') {
        if (turn.userMessages === 0) turn.wordlessSkips++
        else turn.skips++
      }
    } else if (event.type === 'final') {
      const { change } = event
      if (change === 'cancel-last-user-message' || change.role !== 'user') continue
      if (turn) turn.userMessages++
      else loose++
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
