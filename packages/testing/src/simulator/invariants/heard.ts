import type { MicdropConversationMessage } from '@openmic/core/protocol'
import { BYTES_PER_MS } from '../audio-tags.js'
import { firstWords, heardWordCount, isAssistant, matchAnswers, wordCount } from './answers.js'
import type { CallRecord, Violation } from './call-record.js'
import { playedInFlight } from './in-flight.js'

/** What the user heard of one answer, and what its messages hold. */
interface Heard {
  speak: number
  text: string
  playedMs: number
  /** Audio of it the server sent (ms). */
  sentMs: number
  /** The TTS produced all of its audio and the server sent it all. */
  complete: boolean
  /** Played to its end: complete, and all of it played. */
  whole: boolean
  /** Cut by the connection closing: no `Played` report, so the server estimated. */
  cutByClose: boolean
  /** Of `playedMs`, what a Micdrop client played of audio on its way at a barge-in. */
  inFlightMs: number
  messages: MicdropConversationMessage[]
}

/**
 * The conversation holds what the user heard. An answer the client played to its end is kept
 * whole, unflagged; one it stopped before its end is flagged `metadata.interrupted` and holds the
 * words whose end it played (MockTTS word timings); nothing heard, no message. Exact for the
 * openmic client, which reports `Played`; for a Micdrop client (and an answer cut by a hang-up,
 * which no `Played` precedes) the server estimates the position, so the message may hold the
 * words of up to `bounds.heardToleranceMs` more, and may miss what a Micdrop client played of
 * audio that was on its way at a barge-in (see {@link playedInFlight}).
 */
export function checkHeard(record: CallRecord): Violation[] {
  const violations: Violation[] = []
  const matched = matchAnswers(record.agentConversation, record)
  const bySpeak = new Map<number, MicdropConversationMessage[]>()
  for (const item of record.agentConversation) {
    if (!isAssistant(item)) continue
    const speak = matched.get(item)
    if (speak === undefined) {
      violations.push({
        name: 'heard-mismatch',
        message: `The assistant message "${item.content}" is no answer's text: it was never spoken.`,
      })
      continue
    }
    bySpeak.set(speak, [...(bySpeak.get(speak) ?? []), item])
  }
  const sentMs = sentAudioMs(record)
  const inFlight = playedInFlight(record)
  for (const spoken of record.spoken) {
    const playback = record.playback.get(spoken.speak)
    const playedMs = playback?.playedMs ?? 0
    const sent = sentMs.get(spoken.speak) ?? 0
    const complete = spoken.complete && spoken.audioMs > 0 && sent === spoken.audioMs
    const inFlightMs = inFlight.get(spoken.speak) ?? 0
    const problem = judge(record, {
      speak: spoken.speak,
      text: spoken.text,
      playedMs,
      sentMs: sent,
      complete,
      // What the server could know the user heard: not audio played past a barge-in it handled
      whole: complete && playedMs >= spoken.audioMs && inFlightMs === 0,
      inFlightMs,
      // Still to be heard when the client left (dropped then, or arriving after).
      cutByClose:
        record.client.closedAt !== undefined &&
        (playback?.droppedAt ?? Infinity) >= record.client.closedAt,
      messages: bySpeak.get(spoken.speak) ?? [],
    })
    if (problem) violations.push({ name: 'heard-mismatch', message: problem })
  }
  return violations
}

function judge(record: CallRecord, heard: Heard): string | undefined {
  const kept = heard.messages.map((message) => message.content).join(' ')
  const what = `Answer ${heard.speak} ("${heard.text.trim()}"), ${heard.playedMs} ms of it played${heard.whole ? ' to its end' : ''}`
  const keptWords = leadingWords(heard.text, kept)
  if (keptWords === undefined)
    return `${what}: its messages hold "${kept}", not words of it from the start.`
  const all = wordCount(heard.text)
  // The openmic client reports what it played at a barge-in, not when the connection closes.
  const exact = record.client.kind === 'openmic' && !heard.cutByClose
  // With a Micdrop client the server's estimate runs ahead of the client, never past what it sent.
  const estimatedMs = exact
    ? heard.playedMs
    : Math.min(heard.playedMs + record.bounds.heardToleranceMs, heard.sentMs)
  const least = heard.whole ? all : heardWordCount(heard.text, heard.playedMs - heard.inFlightMs)
  const most = heard.whole ? all : heardWordCount(heard.text, estimatedMs)
  if (keptWords < least || keptWords > most) {
    const expected =
      least === most ? `"${firstWords(heard.text, least)}"` : `${least} to ${most} of its words`
    return `${what}: the conversation keeps "${kept}", the user heard ${expected}.`
  }
  if (keptWords === 0) return undefined
  const flagged = heard.messages.some((message) => message.metadata?.interrupted === true)
  // Played to its end: whole and unflagged. Otherwise cut and flagged, unless the server's
  // estimate (Micdrop client) took all of a complete answer as played, or each message kept is
  // one the agent saved, whole (an answer of several model calls heard up to the end of one).
  const mayBeWhole =
    heard.whole ||
    (heard.complete && estimatedMs >= heard.sentMs) ||
    heard.messages.every((message) => savedWhole(record, heard.speak, message))
  if (flagged && heard.whole) return `${what}: its message is flagged interrupted.`
  if (!flagged && !mayBeWhole) return `${what}: its message "${kept}" is not flagged interrupted.`
  return undefined
}

/** `message` is, unchanged, one the agent saved for answer `speak`. */
function savedWhole(record: CallRecord, speak: number, message: MicdropConversationMessage) {
  return record.events.some(
    (event) =>
      event.type === 'agent' &&
      event.what === 'saved' &&
      event.speak === speak &&
      event.item.content === message.content &&
      !message.metadata?.interrupted
  )
}

/**
 * How many whole words of `text`, from its start, `kept` holds (spacing aside: the messages of
 * one answer are its texts, which the TTS got back to back, so a step's last word may run into
 * the next one's first); undefined if it holds something else.
 */
function leadingWords(text: string, kept: string): number | undefined {
  const target = kept.replace(/\s+/g, '')
  if (!text.replace(/\s+/g, '').startsWith(target)) return undefined
  let count = 0
  while (
    count < wordCount(text) &&
    firstWords(text, count + 1).replace(/\s+/g, '').length <= target.length
  ) {
    count++
  }
  return count
}

/** Audio the server sent of each answer (ms), by tag. */
function sentAudioMs(record: CallRecord): Map<number, number> {
  const sent = new Map<number, number>()
  for (const event of record.events) {
    if (event.type === 'sent' && event.frame.kind === 'audio') {
      sent.set(event.frame.tag, (sent.get(event.frame.tag) ?? 0) + event.frame.bytes / BYTES_PER_MS)
    }
  }
  return sent
}
