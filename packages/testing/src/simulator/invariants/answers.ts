import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import { MS_PER_CHAR } from '../script.js'
import type { SpokenAnswer } from '../tagged-tts.js'
import type { CallRecord } from './call-record.js'

/** A word of an answer and when it ends in the answer's audio (MockTTS: 10 ms per character). */
interface TimedWord {
  /** Where the word ends in the text. */
  end: number
  endMs: number
}

function timedWords(text: string): TimedWord[] {
  return [...text.matchAll(/\S+/g)].map((match) => {
    const end = match.index + match[0].length
    return { end, endMs: end * MS_PER_CHAR }
  })
}

/** How many words of `text` end within its first `playedMs` of audio. */
export function heardWordCount(text: string, playedMs: number): number {
  return timedWords(text).filter((word) => word.endMs <= playedMs).length
}

/** The first `count` words of `text`, with the spaces between them, trimmed. */
export function firstWords(text: string, count: number): string {
  if (count <= 0) return ''
  const words = timedWords(text)
  return text.slice(0, words[Math.min(count, words.length) - 1]!.end).trim()
}

export function wordCount(text: string): number {
  return timedWords(text).length
}

export function isAssistant(item: MicdropConversationItem): item is MicdropConversationMessage {
  return item.role === 'assistant'
}

/** The whole text an assistant message stands for: its `fullContent` when it was cut. */
export function fullTextOf(message: MicdropConversationMessage): string {
  const full = message.metadata?.fullContent
  return (typeof full === 'string' ? full : message.content).trim()
}

/**
 * Which `speak()` each assistant message of `items` belongs to (by its number, in the map), from
 * its text: its whole text is what that answer spoke next (an answer whose model called a tool
 * between two texts has two messages). Messages are matched in order; among answers that spoke
 * the same text, one whose rest is exactly that text is preferred; then one the client heard
 * words of, then one it heard anything of (the server keeps no message of an answer nobody
 * heard); unless taking the earliest matches more messages (a Micdrop client was shown an unheard
 * answer too). A message no answer spoke is left out.
 */
export function matchAnswers(
  items: MicdropConversationItem[],
  record: Pick<CallRecord, 'spoken' | 'playback'>
): Map<MicdropConversationMessage, number> {
  const byRank = matchInOrder(items, record, true)
  const earliest = matchInOrder(items, record, false)
  return earliest.size > byRank.size ? earliest : byRank
}

function matchInOrder(
  items: MicdropConversationItem[],
  record: Pick<CallRecord, 'spoken' | 'playback'>,
  preferHeard: boolean
): Map<MicdropConversationMessage, number> {
  const matched = new Map<MicdropConversationMessage, number>()
  const consumed = new Map<number, number>()
  let from = 0
  const restOf = (spoken: SpokenAnswer) =>
    spoken.text.slice(consumed.get(spoken.speak) ?? 0).trimStart()
  for (const item of items) {
    if (!isAssistant(item)) continue
    const full = fullTextOf(item)
    const candidates = record.spoken
      .slice(from)
      .filter((spoken) => full !== '' && restOf(spoken).startsWith(full))
    const rank = (spoken: SpokenAnswer) => {
      const played = record.playback.get(spoken.speak)?.playedMs ?? 0
      const heard = heardWordCount(spoken.text, played) > 0 ? 2 : played > 0 ? 1 : 0
      // All that is left of an answer, exactly, is the surest match
      return (restOf(spoken).trimEnd() === full ? 10 : 0) + (preferHeard ? heard : 0)
    }
    const best = Math.max(...candidates.map(rank))
    const spoken = candidates.find((candidate) => rank(candidate) === best)
    if (!spoken) continue
    const rest = restOf(spoken)
    const skipped = spoken.text.length - (consumed.get(spoken.speak) ?? 0) - rest.length
    consumed.set(spoken.speak, (consumed.get(spoken.speak) ?? 0) + skipped + full.length)
    matched.set(item, spoken.speak)
    from = spoken.speak - 1
  }
  return matched
}
