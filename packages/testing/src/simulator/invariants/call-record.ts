import type { SeenChange } from '../conversation-changes.js'
import type { MicdropConversationItem } from '@openmic/core/protocol'
import type { LoggedEvent } from '../call-log.js'
import type { AnswerPlayback } from '../playback.js'
import type { FullScript } from '../script.js'
import type { ReceivedItem } from '../simulated-client.js'
import type { SpokenAnswer } from '../tagged-tts.js'
import type { PendingTimer } from '../virtual-clock.js'

/**
 * The stable names of what the checks find. Each is one rule of docs/protocol.md:
 * - `turn-unresolved`: a user turn got neither an answer nor `SkipAnswer`.
 * - `extra-skip-answer`: a turn got more `SkipAnswer`s than it had user messages (one allowed
 *   without any).
 * - `answered-twice`: a user message got two answers (two `speak()`s in one turn, or two
 *   assistant messages in a row in the conversation).
 * - `audio-after-barge-in`: audio of an answer sent after the `StartSpeaking` (or `Mute`) that
 *   cancelled it, without `Resume`.
 * - `message-late`: an assistant `Message` reached the client later than the audio of its answer
 *   played (or stopped) plus the bound, or (Micdrop client) later than the answer started playing.
 * - `conversation-mismatch`: the agent's, the client's and the store's conversations differ.
 * - `heard-mismatch`: an assistant message does not hold what the user heard of its answer.
 * - `end-call-early`: `EndCall` reached the client before it finished playing the goodbye.
 * - `end-call-missing`: the agent ended the call and the client never got `EndCall`.
 * - `stuck`: the call is not idle a minute after the user's last step (timers pending, the client
 *   paused or waiting, `drain()` slow), or it never stopped firing timers.
 * - `unhandled-rejection`: a promise rejection nobody handled, during the call.
 * - `error-logged`: the server logged an internal error or something that threw.
 */
export type ViolationName =
  | 'turn-unresolved'
  | 'extra-skip-answer'
  | 'answered-twice'
  | 'audio-after-barge-in'
  | 'message-late'
  | 'conversation-mismatch'
  | 'heard-mismatch'
  | 'end-call-early'
  | 'end-call-missing'
  | 'stuck'
  | 'unhandled-rejection'
  | 'error-logged'

/** A broken rule, found after the call. */
export interface Violation {
  name: ViolationName
  /** What happened, with virtual times (ms since the call connected). */
  message: string
  /** When it happened (virtual ms), when it is one instant. */
  atMs?: number
}

/** The slack the timing checks allow, derived from the script. */
export interface Bounds {
  /**
   * How late an assistant `Message` may reach the client after the user stopped hearing its
   * answer: 2 × latency (the server learns of the cut, the frame comes back) + one TTS chunk +
   * {@link TIMING_SLACK_MS}; with a slow store, plus the server's store timeout (1 s): frames
   * wait for their records, never longer than that.
   */
  messageMs: number
  /**
   * With a Micdrop client the server estimates what was played: from when it sent the audio, so
   * ahead of the client by up to 2 × latency + prebuffer (+ one chunk, + slack). How many more
   * words than the client heard an assistant message may hold.
   */
  heardToleranceMs: number
  /** How much earlier than the end of the goodbye `EndCall` may arrive: the client's prebuffer + slack. */
  endCallMs: number
}

/** Slack for the timing checks: a few ms for work done within one instant (store writes, ticks). */
export const TIMING_SLACK_MS = 10
/** The server's default store timeout: a frame never waits longer for its record. */
const STORE_TIMEOUT_MS = 1000
export function boundsOf(script: FullScript): Bounds {
  const { latencyMs, prebufferMs, tts, store } = script
  const storeHold = store.appendDelayMs > 0 ? STORE_TIMEOUT_MS : 0
  return {
    messageMs: 2 * latencyMs + tts.chunkMs + TIMING_SLACK_MS + storeHold,
    heardToleranceMs: 2 * latencyMs + prebufferMs + tts.chunkMs + TIMING_SLACK_MS,
    endCallMs: prebufferMs + TIMING_SLACK_MS,
  }
}

/** Everything the checks read about one finished call. */
export interface CallRecord {
  script: FullScript
  bounds: Bounds
  events: LoggedEvent[]
  /** The TTS's `speak()` calls, in order (index + 1 = tag). */
  spoken: SpokenAnswer[]
  /** What the client did with each answer's audio, by tag. */
  playback: ReadonlyMap<number, { readonly [K in keyof AnswerPlayback]: AnswerPlayback[K] }>
  clientItems: ReceivedItem[]
  /** The agent's conversation, system prompt aside. */
  agentConversation: MicdropConversationItem[]
  storeConversation: MicdropConversationItem[]
  client: {
    kind: 'openmic' | 'micdrop'
    endCallAt?: number
    /** What was left to play when `EndCall` came (ms). */
    endCallRemainingMs?: number
    hungUpByUser: boolean
    /** When the connection closed for the client (it hung up, or learned the server closed). */
    closedAt?: number
    /** The client's conversation with the changes that were on their way when it left. */
    stayedConversation: MicdropConversationItem[]
    /**
     * Changes the server made final but never sent: once its socket was closed (what the answer
     * playing kept of what was heard), or before, their frame still waiting for the store then.
     */
    unsentChanges: SeenChange[]
  }
  /** A minute after the last step. */
  idle: {
    atMs: number
    pendingTimers: PendingTimer[]
    callOpen: boolean
    clientPaused: boolean
    clientProcessing: boolean
    /** The run kept firing timers and never got there. */
    spinning: boolean
    /** How long `drain()` took (ms), undefined if it never resolved. */
    drainMs?: number
  }
  rejections: unknown[]
  errorLines: string[]
}
