import type { MicdropConversationItem, MicdropToolCall } from '../conversation/types.js'
import { MicdropServerCommands } from './commands.js'

/** Latency of one turn, in milliseconds, as the server measures it (`Metrics <json>`). */
export interface MicdropTurnMetrics {
  /** `StopSpeaking` → final transcript. */
  sttMs?: number
  /** Answer requested → first text from the agent. */
  agentFirstTextMs?: number
  /** First text given to TTS → first audio out of it. */
  ttsFirstAudioMs?: number
  /** `StopSpeaking` → first audio frame sent to the client. */
  endToEndMs?: number
}

/** Payload of the server's `Hello`, its reply to the client's `Hello`. */
export interface MicdropServerHello {
  /**
   * The server holds the answer that a client pauses at `StartSpeaking` (`Played` with `paused`)
   * and always settles it with `Resume` or `Interrupt`. Only then may the client pause instead of
   * dropping the answer.
   */
  resume: boolean
  /**
   * The server settles every barge-in (`StartSpeaking`, `Mute`) with exactly one `Resume` or
   * `Interrupt`, in the order it got them: `Interrupt` at once for one that dropped the answer,
   * after the last audio of what it cut; `Resume` or `Interrupt` once the verdict is known for one
   * that paused it. A client may then keep each barge-in open until its settle: discard the audio
   * still on its way after a drop, stay paused while a later pause waits. Without it (an older
   * server) only a pause is settled, once.
   */
  settlesBargeIns: boolean
  /**
   * The server answers preemptively: the client may send `PauseSpeaking` when the user pauses
   * (a short silence, before its end of speech) and `ResumeSpeaking` if they go on.
   */
  preemptive?: boolean
}

/** Payload of `Caption`: words of the answer being spoken. */
export interface MicdropCaption {
  /** The next words of the answer, with their spacing: append them to what is shown. */
  text: string
  /**
   * When to show them: a position in the call's assistant audio (ms, counted as in `Played`),
   * the end of the last of these words.
   */
  atMs: number
}

/** A server message parsed from a text frame. */
export type MicdropServerMessage =
  | { type: 'Message'; item: MicdropConversationItem }
  | { type: 'CancelLastUserMessage' }
  | { type: 'SkipAnswer' }
  | { type: 'EndCall' }
  | { type: 'ToolCall'; toolCall: MicdropToolCall }
  | { type: 'Metrics'; metrics: MicdropTurnMetrics }
  | { type: 'Resume' }
  | { type: 'Interrupt' }
  | { type: 'Hello'; hello: MicdropServerHello }
  | { type: 'Caption'; caption: MicdropCaption }
  | { type: 'Unknown'; name: string; payload?: unknown }

/** Encodes a server command with an optional JSON payload: `Name` or `Name <json>`. */
export function encodeServerMessage(name: string, payload?: unknown): string {
  return payload === undefined ? name : `${name} ${JSON.stringify(payload)}`
}

/**
 * Parses a server text frame. Never throws: a name it does not know (or a payload that is not
 * JSON) comes back as `Unknown`, for the client to ignore.
 */
export function parseServerMessage(text: string): MicdropServerMessage {
  const space = text.indexOf(' ')
  const name = space === -1 ? text : text.slice(0, space)
  let payload: unknown
  if (space !== -1) {
    try {
      payload = JSON.parse(text.slice(space + 1))
    } catch {
      return { type: 'Unknown', name, payload: text.slice(space + 1) }
    }
  }
  switch (name) {
    case MicdropServerCommands.Message:
      return isObject(payload)
        ? { type: 'Message', item: payload as MicdropConversationItem }
        : unknown(name, payload)
    case MicdropServerCommands.ToolCall:
      return isObject(payload)
        ? { type: 'ToolCall', toolCall: payload as MicdropToolCall }
        : unknown(name, payload)
    case MicdropServerCommands.Metrics:
      return isObject(payload)
        ? { type: 'Metrics', metrics: payload as MicdropTurnMetrics }
        : unknown(name, payload)
    case MicdropServerCommands.Hello:
      return isObject(payload)
        ? { type: 'Hello', hello: serverHelloOf(payload as Record<string, unknown>) }
        : unknown(name, payload)
    case MicdropServerCommands.Caption:
      return isCaption(payload)
        ? { type: 'Caption', caption: { text: payload.text, atMs: payload.atMs } }
        : unknown(name, payload)
    case MicdropServerCommands.CancelLastUserMessage:
    case MicdropServerCommands.SkipAnswer:
    case MicdropServerCommands.EndCall:
    case MicdropServerCommands.Resume:
    case MicdropServerCommands.Interrupt:
      return { type: name }
    default:
      return unknown(name, payload)
  }
}

/** What a server's `Hello` says it does; what it does not say (an older server), it does not do. */
function serverHelloOf(payload: Record<string, unknown>): MicdropServerHello {
  return {
    resume: payload.resume === true,
    settlesBargeIns: payload.settlesBargeIns === true,
    ...(payload.preemptive === true && { preemptive: true }),
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

function isCaption(value: unknown): value is MicdropCaption {
  if (!isObject(value)) return false
  const { text, atMs } = value as Record<string, unknown>
  return typeof text === 'string' && typeof atMs === 'number' && Number.isFinite(atMs) && atMs >= 0
}

function unknown(name: string, payload: unknown): MicdropServerMessage {
  return { type: 'Unknown', name, payload }
}
