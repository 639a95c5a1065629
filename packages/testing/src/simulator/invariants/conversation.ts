import type { MicdropConversationItem } from '@openmic/core/protocol'
import { withChanges } from '../conversation-changes.js'
import { fullTextOf, isAssistant, matchAnswers } from './answers.js'
import type { CallRecord, Violation } from './call-record.js'
import { playedInFlight } from './in-flight.js'

/**
 * The agent's conversation (system prompt aside), the store's and the client's are the same (the
 * client's with the items it would have got had it not left: those on their way when it hung up).
 * With a Micdrop client, one difference is allowed: the client may hold the whole text of an
 * interrupted answer whose `Message` it was sent before the cut (Micdrop's protocol cannot take
 * it back), where the agent holds the cut message, or none (nothing of it heard).
 */
const CANCEL = 'cancel-last-user-message'

export function checkConversations(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  const store = firstDifference(record.agentConversation, record.storeConversation)
  if (store) violations.push(mismatch('store', store))
  const stayed = record.client.stayedConversation
  // A Micdrop client was shown an answer as it started playing: its final item is not sent again
  const shown = (item: MicdropConversationItem) =>
    isAssistant(item) &&
    stayed.some((other) => isAssistant(other) && other.content === fullTextOf(item))
  const unsent = record.client.unsentChanges.filter(
    (change) => change === CANCEL || record.client.kind !== 'micdrop' || !shown(change)
  )
  const clientConversation = withChanges(stayed, unsent)
  const client =
    record.client.kind === 'micdrop'
      ? micdropDifference(record, clientConversation)
      : firstDifference(record.agentConversation, clientConversation)
  if (client) violations.push(mismatch('client', client))
  return violations
}

interface Difference {
  index: number
  agent?: MicdropConversationItem
  other?: MicdropConversationItem
}

function mismatch(side: 'store' | 'client', difference: Difference): Violation {
  const show = (item?: MicdropConversationItem) => (item ? canonical(item) : 'nothing')
  return {
    name: 'conversation-mismatch',
    message: `The ${side}'s conversation differs from the agent's at item ${difference.index + 1}: the agent has ${show(difference.agent)}, the ${side} ${show(difference.other)}.`,
  }
}

function firstDifference(
  agent: MicdropConversationItem[],
  other: MicdropConversationItem[]
): Difference | undefined {
  for (let index = 0; index < Math.max(agent.length, other.length); index++) {
    if (!same(agent[index], other[index]))
      return { index, agent: agent[index], other: other[index] }
  }
  return undefined
}

/** The client's conversation against the agent's, with the one difference a Micdrop client may have. */
function micdropDifference(
  record: CallRecord,
  client: MicdropConversationItem[]
): Difference | undefined {
  const agent = record.agentConversation
  const cutWhole = wholeTextsOfCutAnswers(record, client)
  let a = 0
  let c = 0
  while (a < agent.length || c < client.length) {
    const ours = agent[a]
    const theirs = client[c]
    if (same(ours, theirs)) {
      a++
      c++
      continue
    }
    // The whole text the client was sent before the cut, unflagged, against the cut message…
    if (theirs && cutWhole.has(theirs)) {
      if (
        ours &&
        isAssistant(ours) &&
        ours.metadata?.interrupted &&
        fullTextOf(ours) === theirs.content?.trim()
      ) {
        a++
        c++
        continue
      }
      // …or against no message at all (nothing of it was heard).
      c++
      continue
    }
    return { index: a, agent: ours, other: theirs }
  }
  return undefined
}

/** The client's unflagged assistant items that are the text of an answer it did not hear to its end. */
function wholeTextsOfCutAnswers(
  record: CallRecord,
  client: MicdropConversationItem[]
): Set<MicdropConversationItem> {
  const found = new Set<MicdropConversationItem>()
  const inFlight = playedInFlight(record)
  for (const [item, speak] of matchAnswers(client, record)) {
    const spoken = record.spoken[speak - 1]
    // Audio played past a barge-in the server handled is not what it could know was heard
    const played = (record.playback.get(speak)?.playedMs ?? 0) - (inFlight.get(speak) ?? 0)
    const heardToTheEnd = !!spoken?.complete && played >= spoken.audioMs
    if (!item.metadata?.interrupted && !heardToTheEnd) found.add(item)
  }
  return found
}

function same(a?: MicdropConversationItem, b?: MicdropConversationItem): boolean {
  if (!a || !b) return a === b
  return canonical(a) === canonical(b)
}

/** JSON with keys in order: items built, parsed and stored apart compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => x.localeCompare(y)))
      : inner
  )
}
