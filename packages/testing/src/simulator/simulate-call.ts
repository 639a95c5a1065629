import { Logger, type STT, type TTS } from '@openmic/core'
import { parseServerMessage, type MicdropConversationItem } from '@openmic/core/protocol'
import { MicdropServer, type ConversationStore } from '@openmic/server'
import type { WebSocket } from 'ws'
import { tagOf } from './audio-tags.js'
import { CallLog, type ClientFrame } from './call-log.js'
import type { SeenChange } from './conversation-changes.js'
import { checkInvariants } from './invariants/index.js'
import { boundsOf, type CallRecord, type Violation } from './invariants/call-record.js'
import { ERROR_LINE } from './invariants/errors.js'
import { createSocketPair } from './memory-socket.js'
import type { AnswerPlayback } from './playback.js'
import { RecordingStore } from './recording-store.js'
import { fullScript, utterances, type CallScript, type FullScript } from './script.js'
import { createScriptedAgent } from './scripted-agent.js'
import { SimulatedClient } from './simulated-client.js'
import { SimulatedSTT } from './simulated-stt.js'
import { SimulatedUser } from './simulated-user.js'
import { TaggedTTS } from './tagged-tts.js'
import { logText, timelineOf, type TimelineEntry } from './timeline.js'
import { withVirtualClock, type VirtualClock } from './virtual-clock.js'
import { DRAIN_AT_ONCE_MS } from './invariants/idle.js'

/** How long the call is left alone after the user's last step before it must be idle. */
const IDLE_AFTER_MS = 60_000
const CANCEL = 'cancel-last-user-message'
/** The deadline given to `drain()`; an idle call closes long before. */
const DRAIN_DEADLINE_MS = 5_000
/** After the call closed: time for the store to take its last records (its retries included). */
const AFTER_CLOSE_MS = 35_000
/** The longest a call's steps may take, waits included, before the run gives up on it. */
const MAX_CALL_MS = 30 * 60_000

/** What the simulator hands to `options.server` to build the server with. */
export interface SimulatedParts {
  /** Transcribes each utterance as the script says (its audio tells which utterance it is). */
  stt: STT
  /**
   * Core's MockTTS with each audio sample tagged with its `speak()` number: the checks attribute
   * every frame to its answer. Use it, or the checks on audio and the conversation mean nothing.
   */
  tts: TTS
  /** Keeps every record; as slow or failing as the script says. */
  store: ConversationStore
  /** Pass it with `store`. */
  conversationId: string
  /** Pass it as the server's `logger`: lines that say something threw are violations. */
  logger: Logger
}

export interface SimulateCallOptions {
  /**
   * Builds the server on the simulator's in-memory socket: your agent and options, with `parts`
   * (STT, TTS, store, logger). Default: a `MicdropServer` with core's MockAgent playing the
   * script's answers and the script's server options.
   */
  server?: (socket: WebSocket, parts: SimulatedParts) => MicdropServer
}

/** What became of one answer (one `speak()` call of the TTS). */
export interface AnswerReport {
  /** Its number, from 1 (the greeting first, when there is one). */
  speak: number
  text: string
  /** Audio the TTS produced, the client got, and the client played (ms). */
  audioMs: number
  receivedMs: number
  playedMs: number
  /** The TTS produced all its audio. */
  complete: boolean
}

/** The outcome of one simulated call. */
export interface SimulationResult {
  /** The invariants the call broke; empty when it kept them all. */
  violations: Violation[]
  /** Everything that happened, in order: frames either way, playback, the user, agent, STT, TTS, store, logs. */
  timeline: TimelineEntry[]
  /** The conversation at the end: the agent's (system prompt aside), the client's, the store's. */
  conversation: {
    agent: MicdropConversationItem[]
    client: MicdropConversationItem[]
    store: MicdropConversationItem[]
  }
  answers: AnswerReport[]
  /** When the user's last step was over (virtual ms). */
  lastStepAtMs: number
  /** The client's close code, once the connection closed. */
  closeCode?: number
}

/**
 * Runs one whole voice call against a real `MicdropServer`, on virtual time, and checks the
 * invariants after it: a simulated client (openmic's or Micdrop's) plays the audio it receives in
 * real time on the virtual clock, and a simulated user takes the script's steps. Deterministic:
 * the same script replays the same call, event for event.
 *
 * One simulation runs at a time per process (the clock is global): calls made meanwhile wait.
 *
 * @example
 * const result = await simulateCall({
 *   server: { firstMessage: 'Hello!' },
 *   agent: { answers: ['It is sunny today.'] },
 *   steps: [{ waitFor: 'quiet' }, { say: 'What is the weather like' }, { waitFor: 'quiet' }],
 * })
 * expect(result.violations).toEqual([])
 */
export function simulateCall(
  script: CallScript,
  options: SimulateCallOptions = {}
): Promise<SimulationResult> {
  return withVirtualClock((clock) => runCall(fullScript(script), options, clock))
}

async function runCall(
  script: FullScript,
  options: SimulateCallOptions,
  clock: VirtualClock
): Promise<SimulationResult> {
  const log = new CallLog(() => clock.now)
  const rejections: unknown[] = []
  const errorLines: string[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  process.on('unhandledRejection', onRejection)
  try {
    const logger = new Logger('server', (_prefix, ...message) => {
      log.add({ type: 'log', message })
      const line = message.map(logText).join(' ')
      if (ERROR_LINE.test(line)) errorLines.push(line)
    })
    const store = new RecordingStore(script.store, log)
    const tts = new TaggedTTS(script.tts, log)
    const stt = new SimulatedSTT(utterances(script.steps), script.stt.transcriptEnd, log)
    let client!: SimulatedClient
    // Items the server made final but never sent: once its socket was closed (what the answer
    // playing kept at a hang-up), or before, their frame still waiting for the store then.
    const unsent: SeenChange[] = []
    const awaitingFrame: SeenChange[] = []
    const sentItem = (text: string) => {
      const message = parseServerMessage(text)
      if (message.type !== 'Message' && message.type !== 'CancelLastUserMessage') return
      const sent = JSON.stringify(message.type === 'Message' ? message.item : CANCEL)
      const index = awaitingFrame.findIndex((change) => JSON.stringify(change) === sent)
      if (index !== -1) awaitingFrame.splice(index, 1)
    }
    const heldWhileLoading: ClientFrame[] = []
    const pair = createSocketPair(
      script.latencyMs,
      {
        text: (text) => client.text(text),
        audio: (audio) => client.audio(audio),
        close: (code) => client.close(code),
      },
      {
        sent: (data, binary) => {
          if (!binary) sentItem(data.toString())
          log.add({
            type: 'sent',
            frame: binary
              ? { kind: 'audio', bytes: (data as Buffer).length, tag: tagOf(data as Buffer) }
              : frameOfText(data.toString()),
          })
        },
        delivered: (data, binary) => {
          const frame: ClientFrame = binary
            ? { kind: 'audio', bytes: data.length, utterance: tagOf(data) }
            : { kind: 'text', text: data.toString() }
          // The server handles the frames that come while the history loads once it is loaded.
          if (store.loading) heldWhileLoading.push(frame)
          else log.add({ type: 'handled', frame })
        },
        closed: (side, code) => log.add({ type: 'closed', side, code }),
      }
    )
    store.onLoaded(() => {
      for (const frame of heldWhileLoading.splice(0)) log.add({ type: 'handled', frame })
    })
    client = new SimulatedClient(
      script.client,
      pair.client,
      script.prebufferMs,
      log,
      script.endSilenceMs
    )
    const parts: SimulatedParts = { stt, tts, store, conversationId: 'simulated-call', logger }
    const server = options.server
      ? options.server(pair.server, parts)
      : defaultServer(pair.server, parts, script)
    watchAgent(server, tts, log)
    const recorded = (change: SeenChange) => {
      log.add({ type: 'final', change })
      if (pair.server.readyState !== 1) unsent.push(change)
      else awaitingFrame.push(change)
    }
    server.on('Message', (item) => recorded({ ...item }))
    server.on('CancelLastUserMessage', () => recorded(CANCEL))
    client.connect()
    const user = new SimulatedUser(script.steps, client, log)
    user.start()

    await clock.runUntil(() => user.done, MAX_CALL_MS)
    const lastStepAtMs = clock.now
    await clock.runFor(IDLE_AFTER_MS)
    const idle = await idleState(clock, server, client)
    await clock.runUntil(() => clock.pendingTimers().length === 0, clock.now + AFTER_CLOSE_MS)
    await clock.settle()

    const record: CallRecord = {
      script,
      bounds: boundsOf(script),
      events: log.events,
      spoken: tts.spoken,
      playback: client.speaker.answers,
      clientItems: client.items,
      agentConversation: server.agent.conversation.filter((item) => item.role !== 'system'),
      storeConversation: store.conversation,
      client: {
        kind: script.client,
        endCallAt: client.endCallAt,
        endCallRemainingMs: client.endCallRemainingMs,
        hungUpByUser: client.hungUpByUser,
        closedAt: client.closedAt,
        stayedConversation: client.stayedConversation,
        unsentChanges: [...awaitingFrame, ...unsent],
      },
      idle,
      rejections,
      errorLines,
    }
    return {
      violations: checkInvariants(record),
      timeline: timelineOf(log.events),
      conversation: {
        agent: record.agentConversation,
        client: client.conversation,
        store: record.storeConversation,
      },
      answers: tts.spoken.map((spoken) => report(spoken, client.speaker.answers.get(spoken.speak))),
      lastStepAtMs,
      closeCode: client.closeCode,
    }
  } finally {
    process.off('unhandledRejection', onRejection)
  }
}

/** The server `simulateCall` builds without `options.server`: the script's agent and options. */
export function defaultServer(socket: WebSocket, parts: SimulatedParts, script: FullScript) {
  const {
    firstMessage,
    resumeAfterNoise,
    transcriptGraceMs,
    transcriptTimeoutMs,
    resumeTimeoutMs,
    preemptive,
  } = script.server
  return new MicdropServer(socket, {
    agent: createScriptedAgent(script.agent),
    stt: parts.stt,
    tts: parts.tts,
    store: parts.store,
    conversationId: parts.conversationId,
    logger: parts.logger,
    firstMessage,
    resumeAfterNoise,
    transcriptGraceMs,
    transcriptTimeoutMs,
    resumeTimeoutMs,
    preemptive,
  })
}

/** Logs what the agent saves and when it ends the call, with the answer it belongs to. */
function watchAgent(server: MicdropServer, tts: TaggedTTS, log: CallLog) {
  // An item saved while no speak() runs belongs to the last one when that one said it, or said the
  // start of it (the server saving what was heard of an answer that ended, or what an answer whose
  // TTS failed had given it, some of it not read yet), else to the next one (a first message
  // added, then spoken).
  const speak = (text = '') => {
    if (tts.current) return tts.current.speak
    const last = tts.spoken.at(-1)
    const said = last?.text.trim() ?? ''
    const same = text !== '' && said !== '' && (said.includes(text) || text.startsWith(said))
    return last && same ? last.speak : tts.calls + 1
  }
  server.agent.on('Message', (item) => {
    // A copy: the server cuts the very object later, to what was heard.
    const saved = { ...item }
    if (item.role === 'assistant')
      log.add({ type: 'agent', what: 'saved', item: saved, speak: speak(item.content.trim()) })
  })
  server.agent.on('EndCall', () => log.add({ type: 'agent', what: 'end-call', speak: speak() }))
}

/** The call a minute after the user's last step; then `drain()`, timed. */
async function idleState(clock: VirtualClock, server: MicdropServer, client: SimulatedClient) {
  const atMs = clock.now
  const pendingTimers = clock.pendingTimers()
  const state = {
    atMs,
    pendingTimers,
    callOpen: !server.isEnded,
    clientPaused: client.answerPaused,
    clientProcessing: client.processing && client.isOpen,
    spinning: clock.spinning,
  }
  let drainedAt: number | undefined
  void server.drain(DRAIN_DEADLINE_MS).then(() => (drainedAt = clock.now))
  await clock.runUntil(() => drainedAt !== undefined, atMs + DRAIN_DEADLINE_MS + DRAIN_AT_ONCE_MS)
  return { ...state, drainMs: drainedAt === undefined ? undefined : drainedAt - atMs }
}

function frameOfText(text: string) {
  return { kind: 'text' as const, text, message: parseServerMessage(text) }
}

function report(spoken: TaggedTTS['spoken'][number], playback?: AnswerPlayback): AnswerReport {
  return {
    speak: spoken.speak,
    text: spoken.text,
    audioMs: spoken.audioMs,
    receivedMs: playback?.receivedMs ?? 0,
    playedMs: playback?.playedMs ?? 0,
    complete: spoken.complete,
  }
}
