import type { MicdropConversationItem, MicdropServerMessage } from '@openmic/core/protocol'
import type { SeenChange } from './conversation-changes.js'

/** A frame the server sent (or the client received). */
export type ServerFrame =
  | { kind: 'text'; text: string; message: MicdropServerMessage }
  /** `tag`: the number of the `speak()` call whose audio this is (the tagged TTS's samples). */
  | { kind: 'audio'; bytes: number; tag: number }

/** A frame the client sent (and the server handled). */
export type ClientFrame =
  | { kind: 'text'; text: string }
  /** `utterance`: the number of the user's utterance whose audio this is (its samples). */
  | { kind: 'audio'; bytes: number; utterance: number }

/** What the simulated client did with its playback or its app. */
export type ClientAction =
  | { action: 'play'; tag: number; startsAtMs: number }
  | { action: 'pause'; positionMs: number }
  | { action: 'resume'; positionMs: number }
  | { action: 'drop'; tags: number[]; droppedMs: number }
  | { action: 'drop-incoming'; tag: number; ms: number }
  | { action: 'idle' }
  | { action: 'caption'; text: string; atMs: number }
  | { action: 'end-call'; hangUp: boolean }

/** One thing that happened during a simulated call. */
export type CallEvent =
  | { type: 'sent'; frame: ServerFrame }
  | { type: 'handled'; frame: ClientFrame }
  | { type: 'received'; frame: ServerFrame }
  | ({ type: 'client' } & ClientAction)
  | {
      type: 'user'
      what: 'start' | 'stop' | 'mute' | 'hang-up'
      utterance?: number
      words?: string
    }
  | { type: 'speak'; speak: number }
  /** The end of a `speak()`'s audio: all of it produced, failed, or cancelled by the server. */
  | { type: 'speak-end'; speak: number; outcome: 'complete' | 'failed' | 'cancelled' }
  | { type: 'stt'; utterance: number; what: 'transcript' | 'end' | 'failed'; text?: string }
  | { type: 'agent'; what: 'saved'; item: MicdropConversationItem; speak: number }
  /** The server made a change final (its `Message` or `CancelLastUserMessage` event). */
  | { type: 'final'; change: SeenChange }
  | { type: 'agent'; what: 'end-call'; speak: number }
  | { type: 'store'; what: 'loaded' | 'end' }
  /** The store's `append` of record `index` (the `index`-th Message or CancelLastUserMessage frame). */
  | { type: 'store'; what: 'append'; index: number; attempt: number; stored: boolean }
  | { type: 'closed'; side: 'server' | 'client'; code: number }
  | { type: 'log'; message: unknown[] }

/** A {@link CallEvent} with when it happened (virtual ms since the start) and its rank. */
export type LoggedEvent = CallEvent & { at: number; seq: number }

/**
 * Everything that happened during one simulated call, in order. Events of one instant keep the
 * order in which they happened, so the checks can tell a frame sent just before a `StartSpeaking`
 * from one sent just after it.
 */
export class CallLog {
  readonly events: LoggedEvent[] = []

  constructor(private readonly now: () => number) {}

  add(event: CallEvent): void {
    this.events.push({ ...event, at: this.now(), seq: this.events.length })
  }
}
