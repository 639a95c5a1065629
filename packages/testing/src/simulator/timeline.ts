import { BYTES_PER_MS } from './audio-tags.js'
import type { ClientAction, LoggedEvent, ServerFrame } from './call-log.js'

/** One line of a call's timeline. */
export interface TimelineEntry {
  /** Virtual ms since the call connected. */
  atMs: number
  /** Who did it. */
  who: 'user' | 'client' | 'server' | 'agent' | 'tts' | 'stt' | 'store' | 'log'
  what: string
}

const MAX_TEXT = 140

/**
 * The call's events as readable lines, in order. Runs of audio frames of one answer (or one
 * utterance) on one side become one line, with their count and length.
 */
export function timelineOf(events: LoggedEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = []
  /** The audio run open on each side: sent, handled, received. */
  const runs = new Map<
    string,
    { tag: number; count: number; ms: number; entry: TimelineEntry; label: string; until: number }
  >()
  for (const event of events) {
    if (event.type === 'sent' || event.type === 'handled' || event.type === 'received') {
      const who = event.type === 'received' ? 'client' : 'server'
      const arrow = event.type === 'sent' ? '→' : '←'
      const { frame } = event
      if (frame.kind === 'audio') {
        const tag = 'tag' in frame ? frame.tag : frame.utterance
        const label = 'tag' in frame ? `audio of answer ${tag}` : `audio of utterance ${tag}`
        const run = runs.get(event.type)
        if (run && run.tag === tag) {
          run.count++
          run.ms += frame.bytes / BYTES_PER_MS
          run.until = event.at
          run.entry.what = audioLine(arrow, run)
          continue
        }
        const entry: TimelineEntry = { atMs: event.at, who, what: '' }
        const opened = {
          tag,
          count: 1,
          ms: frame.bytes / BYTES_PER_MS,
          entry,
          label,
          until: event.at,
        }
        entry.what = audioLine(arrow, opened)
        runs.set(event.type, opened)
        entries.push(entry)
        continue
      }
      runs.delete(event.type)
      entries.push({ atMs: event.at, who, what: `${arrow} ${clip(frame.text)}` })
      continue
    }
    const entry = describe(event)
    if (entry) entries.push({ atMs: event.at, ...entry })
  }
  return entries
}

/** The timeline as text, one line per entry. */
export function formatTimeline(entries: TimelineEntry[]): string {
  return entries
    .map(
      (entry) =>
        `${String(Math.round(entry.atMs)).padStart(7)} ms  ${entry.who.padEnd(6)} ${entry.what}`
    )
    .join('\n')
}

function audioLine(
  arrow: string,
  run: { label: string; count: number; ms: number; entry: TimelineEntry; until: number }
): string {
  const span = run.count > 1 ? `, until ${Math.round(run.until)} ms` : ''
  return `${arrow} ${run.label} ×${run.count} (${Math.round(run.ms)} ms${span})`
}

function describe(event: LoggedEvent): Omit<TimelineEntry, 'atMs'> | undefined {
  switch (event.type) {
    case 'client':
      return { who: 'client', what: clientAction(event) }
    case 'user':
      if (event.what === 'start') {
        return {
          who: 'user',
          what: `starts speaking: utterance ${event.utterance} "${event.words ?? ''}"`,
        }
      }
      return {
        who: 'user',
        what: `${event.what === 'stop' ? 'stops speaking' : event.what === 'mute' ? 'mutes' : 'hangs up'}${event.utterance ? ` (utterance ${event.utterance})` : ''}`,
      }
    case 'speak':
      return { who: 'tts', what: `speak() ${event.speak} begins` }
    case 'speak-end':
      return {
        who: 'tts',
        what: `speak() ${event.speak} ${SPEAK_ENDS[event.outcome]}`,
      }
    case 'stt':
      return {
        who: 'stt',
        what: `utterance ${event.utterance}: ${event.what === 'transcript' ? `Transcript "${event.text}"` : event.what === 'end' ? 'TranscriptEnd' : 'Failed'}`,
      }
    case 'agent':
      return event.what === 'saved'
        ? {
            who: 'agent',
            what: `saves ${event.item.role} ${clip(JSON.stringify(event.item.content ?? event.item))} (answer ${event.speak})`,
          }
        : { who: 'agent', what: `ends the call (answer ${event.speak})` }
    case 'store':
      if (event.what !== 'append') return { who: 'store', what: event.what }
      return {
        who: 'store',
        what: `append of record ${event.index} ${event.stored ? 'stored' : 'failed'} (attempt ${event.attempt})`,
      }
    case 'closed':
      return { who: event.side, what: `closes the connection (${event.code})` }
    case 'log':
      return { who: 'log', what: clip(event.message.map(logText).join(' ')) }
    default:
      return undefined
  }
}

function clientAction(action: ClientAction): string {
  switch (action.action) {
    case 'play':
      return `plays answer ${action.tag} from ${Math.round(action.startsAtMs)} ms`
    case 'pause':
      return `pauses playback at position ${Math.round(action.positionMs)} ms`
    case 'resume':
      return `resumes playback at position ${Math.round(action.positionMs)} ms`
    case 'drop':
      return `drops ${Math.round(action.droppedMs)} ms queued (answer ${action.tags.join(', ')})`
    case 'drop-incoming':
      return `drops ${Math.round(action.ms)} ms of answer ${action.tag} as it arrives`
    case 'idle':
      return 'has played everything'
    case 'caption':
      return `shows caption ${JSON.stringify(action.text)} (at ${action.atMs} ms)`
    case 'end-call':
      return 'EndCall reaches the app, which hangs up'
  }
}

/** A logged value as text (an error as its name and message). */
export function logText(part: unknown): string {
  if (part instanceof Error) return `${part.name}: ${part.message}`
  if (typeof part === 'string') return part
  try {
    return JSON.stringify(part)
  } catch {
    return String(part)
  }
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
}

const SPEAK_ENDS = {
  complete: 'produced all its audio',
  failed: 'failed',
  cancelled: 'cancelled',
} as const
