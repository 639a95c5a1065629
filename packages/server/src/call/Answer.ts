// One answer of a call, from its first word to its final item: its phase, its output queued in the
// call's outbox, and the text the user heard of it.

import type { Readable } from 'node:stream'
import type { Agent, TTS, TTSWord } from '@openmic/core'
import {
  audioMs,
  type MicdropConversationMessage,
  type MicdropConversationToolItem,
  type MicdropServerCommand,
} from '@openmic/core/protocol'
import { turnMetrics, type TurnClock, type TurnTimes } from '../metrics/turn-metrics.js'
import type { PlaybackTimes, TurnFailure, TurnOutcome, TurnReport } from '../metrics/turn-report.js'
import { createPushStream } from '../streams/push-stream.js'
import { AnswerPlayback } from './answer-playback.js'
import { heardChars, timedWords, type SpokenText } from './heard-text.js'
import type { Outbox, OutboxEntry, OutboxOwner, Release } from './outbox.js'
import type { PlaybackClock } from './playback-clock.js'
import type { AnswerOutcome, CallOutput } from './types.js'

/** What an answer speaks: the agent's answer, the call's first message, or a text given to `speak()`. */
export type AnswerKind = 'answer' | 'greeting' | 'speech'

/**
 * Where an answer is, from its first word to its final item:
 * - `gated`: being produced, its output withheld until the user turn's text is settled (an STT that
 *   cannot signal the end of a turn may still send a piece);
 * - `streaming`: being produced, its audio going out as it comes;
 * - `held`: the client paused it over the user's speech; its output waits for the noise verdict;
 * - `playing`: all of it was sent, the client is playing it;
 * - final: `heard` (played to its end), `cut` (stopped before: barge-in, mute, hang-up, a newer
 *   answer, a TTS that failed midway; it keeps what was heard), `silent` (nothing to say), `failed`
 *   (failed before a word was sent).
 */
export type AnswerPhase =
  'gated' | 'streaming' | 'held' | 'playing' | 'heard' | 'cut' | 'silent' | 'failed'

/** What the metadata of an assistant message cut short holds. */
export interface InterruptedMetadata {
  interrupted: true
  /** The whole answer, as the agent wrote it. */
  fullContent?: string
  /** How much of the answer's audio was played before the cut (ms). */
  heardMs: number
}

/** What an answer needs of its call. */
export interface AnswerHost {
  readonly agent: Agent
  readonly tts: TTS
  readonly output: CallOutput
  readonly clock: PlaybackClock
  readonly outbox: Outbox
  /** The client shows captions, and takes each answer's `Message` once final. */
  readonly captions: boolean
  /** The client tells when its playback runs out: that, not an estimate, says an answer was heard. */
  readonly reportsPlaybackEnd: boolean
  /** It is known which client it is (it spoke first): else nothing is shown before it is final. */
  readonly known: boolean
  /** The answer's first audio went out. */
  answerAudible(answer: Answer): void
  /** The answer's production ended (see {@link Answer.outcome}). */
  answerProduced(answer: Answer): void
  /** The answer reached a final phase. */
  answerFinal(answer: Answer): void
}

export interface AnswerOptions {
  kind: AnswerKind
  /** It replies to the user's unanswered messages. */
  forUser: boolean
  /** Its output waits for {@link Answer.open}. */
  gated: boolean
  /** The user turn it answers, for the turn's metrics. */
  turn?: TurnClock
  /** When it was asked for (performance.now()). */
  requestedAt: number
}

/** An assistant message the agent saved during the answer, and the part of the text it says. */
interface SavedMessage {
  entry: OutboxEntry
  /** Where its text starts and ends in what the answer spoke. */
  from: number
  to: number
}

const FINAL_PHASES: ReadonlySet<AnswerPhase> = new Set(['heard', 'cut', 'silent', 'failed'])

/** For a client that reports the end of its playback: how long its report may take to come. */
const REPORT_FALLBACK_MS = 2000
/** The end-of-playback timer counts in whole ms: an answer within this of its end was heard. */
const TIMER_RESOLUTION_MS = 1

/**
 * One answer, from the text the agent (or the app) gives it to the items the conversation keeps
 * of it. It feeds its text to the TTS as it streams and sends the audio on (or withholds it while
 * `gated` or `held`); it knows where its audio sits in the call's stream and how much of it the
 * client played; and it decides when each item it produced may go (its {@link Answer.releaseOf}
 * rule): an assistant message once the answer was heard to its end or cut (cut to the words heard),
 * or, for a client without captions, as soon as it starts playing. One object holds all of it, in
 * one {@link AnswerPhase}.
 */
export class Answer implements OutboxOwner {
  phase: AnswerPhase
  readonly kind: AnswerKind
  readonly forUser: boolean
  readonly turn?: TurnClock
  /** How production ended; undefined while it goes on. */
  outcome?: AnswerOutcome
  /**
   * The agent did something that cannot be taken back during the answer (a tool call, a skip, the
   * end of the call, removing the user message): it can no longer be thrown away and restarted.
   */
  acted = false
  private readonly spoken: SpokenText & { wordEndsMs: number[] } = {
    text: '',
    audioMs: 0,
    complete: false,
    wordEndsMs: [],
  }
  private readonly playback = new AnswerPlayback()
  private readonly messages: SavedMessage[] = []
  /** Its `tool_call` and `tool_result` items, in the outbox. */
  private readonly toolEntries: OutboxEntry[] = []
  /** The agent skipped the answer itself (it sent `SkipAnswer`). */
  private skipped = false
  /** A `SkipAnswer` of it went out (not withheld, nor dropped with the gated output). */
  private skipSent = false
  /** What was heard of text the agent never saved was saved for it (see `keepHeard`). */
  private savedHeard = false
  /** Audio produced while gated or held (made when first needed: most answers withhold none). */
  private withheldAudio?: Buffer[]
  /** Frames (`SkipAnswer`, `ToolCall`) produced while gated. */
  private withheldFrames?: Array<[MicdropServerCommand, unknown]>
  private textStream?: Readable
  private textEnded = false
  /** What the TTS speaks; let go once production ended (a final answer holds no stream). */
  private ttsInput?: Readable = createPushStream()
  private readonly requestedAt: number
  private firstTextAt?: number
  private firstAudioAt?: number
  private firstSentAt?: number
  private producedAt?: number
  private endedAt?: number
  /** What failed during its production (the agent's or the TTS's `Failed`). */
  private failure?: TurnFailure
  /** Its playback, once it is final and some of it was sent. */
  private playbackTimes?: PlaybackTimes
  private metricsSent = false
  /** Words already sent as `Caption`. */
  private captioned = 0
  private heardTimer?: NodeJS.Timeout

  constructor(
    private readonly host: AnswerHost,
    options: AnswerOptions
  ) {
    this.kind = options.kind
    this.forUser = options.forUser
    this.turn = options.turn
    this.requestedAt = options.requestedAt
    this.phase = options.gated ? 'gated' : 'streaming'
  }

  /** In a final phase: nothing of it changes any more. */
  get final(): boolean {
    return FINAL_PHASES.has(this.phase)
  }

  /** Production goes on: the TTS (and the agent) work for this answer. */
  get producing(): boolean {
    return this.outcome === undefined
  }

  /** Nothing of it reached the client and the agent did nothing lasting: it can be thrown away. */
  get restartable(): boolean {
    return this.kind === 'answer' && !this.acted && this.firstSentAt === undefined
  }

  /** The client learned of it: its audio, or its `SkipAnswer`, went out. */
  get reachedClient(): boolean {
    return this.firstSentAt !== undefined || this.skipSent
  }

  /**
   * It kept an assistant message, or the agent settled the turn another way (skip, noise, tools).
   * Known once it is final.
   */
  answered = false

  /** It was thrown away (its turn is answered again, or went on): it reports no turn. */
  discarded = false

  // ---- production: text → TTS → audio ----

  /** Starts speaking `text` (the agent's answer stream, or a given text). */
  start(text: Readable): void {
    this.textStream = text
    text.on('data', this.onText)
    text.on('end', this.onTextEnd)
    text.on('error', this.onTextEnd)
    try {
      this.host.tts.speak(this.ttsInput!)
    } catch (error) {
      this.host.output.log('TTS speak() threw:', error)
      this.produced('failed')
    }
  }

  /** The agent's `answer()` threw: nothing will be said. */
  failToStart(): void {
    this.produced('failed')
  }

  /** Audio from the TTS. */
  ttsAudio(audio: Buffer): void {
    if (!this.producing) return
    this.firstAudioAt ??= performance.now()
    this.spoken.audioMs += audioMs(audio.length)
    if (this.phase === 'gated' || this.phase === 'held') (this.withheldAudio ??= []).push(audio)
    else this.sendAudio(audio)
  }

  /** Word timings from the TTS. */
  ttsWords(words: TTSWord[]): void {
    if (!this.producing) return
    for (const word of words) this.spoken.wordEndsMs.push(word.endMs)
    this.sendCaptions()
  }

  /** The TTS emitted all audio of the text it was given. */
  ttsAudioEnd(): void {
    if (!this.producing || !this.textEnded) return
    this.produced(this.spoken.audioMs > 0 ? 'spoken' : 'silent')
  }

  ttsFailed(error: unknown): void {
    if (!this.producing) return
    this.failedWith('tts', error)
    this.produced('failed')
  }

  /** The agent or the TTS failed while producing it (for its turn's report). */
  failedWith(part: 'agent' | 'tts', error: unknown): void {
    this.failure ??= { part, error, at: performance.now() }
  }

  // ---- what the agent does while producing it ----

  /** The agent saved an assistant message for this answer. */
  saved(message: MicdropConversationMessage): void {
    const from = this.messages.at(-1)?.to ?? 0
    const entry = this.host.outbox.push({ type: 'item', item: message }, this)
    this.messages.push({ entry, from, to: this.spoken.text.length })
  }

  /** A `tool_call` or `tool_result` item of the answer: it goes in order, behind its message. */
  toolItem(item: MicdropConversationToolItem): void {
    this.acted = true
    this.toolEntries.push(this.host.outbox.push({ type: 'item', item }, this))
  }

  /** The agent removed the user's last message (noise): the client is told in order. */
  cancelledUserMessage(): void {
    this.acted = true
    this.host.outbox.push({ type: 'cancel-last-user-message' }, this)
  }

  /** A frame the agent's actions send (`ToolCall`, its own `SkipAnswer`), withheld while gated. */
  agentFrame(name: MicdropServerCommand, payload?: unknown): void {
    this.acted = true
    if (name === 'SkipAnswer') this.skipped = true
    this.sendFrame(name, payload)
  }

  /** The agent will end the call after this answer. */
  endsCall(): void {
    this.acted = true
  }

  // ---- what the call decides ----

  /** The user turn's text is settled: the withheld output goes. */
  open(): void {
    if (this.phase !== 'gated') return
    this.phase = 'streaming'
    const frames = this.withheldFrames ?? []
    this.withheldFrames = undefined
    for (const [name, payload] of frames) this.sendFrame(name, payload)
    this.flushAudio()
    this.afterProduction()
    this.host.outbox.flush()
  }

  /** The client paused it at the user's speech: its output waits for the verdict. */
  hold(): void {
    if (this.phase !== 'streaming' && this.phase !== 'playing') return
    clearTimeout(this.heardTimer)
    this.phase = 'held'
  }

  /**
   * The user's speech was noise: the client plays on from `pausedAtMs` (a position in the call's
   * stream; the clock was told) and the rest follows.
   */
  resume(pausedAtMs: number): void {
    if (this.phase !== 'held') return
    const now = performance.now()
    this.playback.resumed(this.playback.playedMs(now, pausedAtMs), now)
    this.phase = 'streaming'
    this.flushAudio()
    this.afterProduction()
    this.host.outbox.flush()
  }

  /**
   * The user stopped it (barge-in, mute, a verdict, hang-up): it keeps what the client played, by
   * its report (`playedUpToMs`, a position in the call's stream) or the estimate.
   */
  interrupt(playedUpToMs?: number): void {
    if (this.final) return
    const now = performance.now()
    this.end('cut', this.playback.playedMs(now, playedUpToMs), {
      at: now,
      source: playedUpToMs === undefined ? 'estimated' : 'reported',
    })
  }

  /** The client reports it played the call's audio up to `positionMs`. */
  playedTo(positionMs: number): void {
    const end = this.playback.endMs
    if (this.phase !== 'playing' || end === undefined || positionMs < end) return
    this.end(this.spoken.complete ? 'heard' : 'cut', this.playback.sentMs, {
      at: performance.now(),
      source: 'reported',
    })
  }

  /**
   * A newer answer replaces it, or the app cancelled it, without the client dropping anything: it
   * keeps all that was sent, as the client will play it.
   */
  settle(): void {
    if (this.final) return
    const heard = this.outcome === 'spoken' && this.phase !== 'gated'
    // The client plays all that was sent: it is heard when it will have played
    this.end(heard ? 'heard' : 'cut', this.playback.sentMs, {
      at: this.playback.playEndAt,
      source: 'estimated',
    })
  }

  /** Nothing of it went out and it is asked again with more text: it disappears. */
  discard(): void {
    if (this.final) return
    this.discarded = true
    this.end('cut', 0)
  }

  /**
   * Nothing of it went out and the turn it answered was not over (a preemptive answer): it
   * disappears with its tool items, which leave the conversation too (what the tools did is not
   * undone; the agent asked again calls them again).
   */
  drop(): void {
    if (this.final) return
    for (const entry of this.toolEntries) {
      if (entry.change.type === 'item') this.host.agent.removeMessage(entry.change.item)
      entry.dropped = true
    }
    this.discard()
  }

  /** The release rule of every item the answer produced (see {@link Outbox}). */
  releaseOf(entry: OutboxEntry): Release {
    if (this.final) return 'now'
    if (this.phase === 'gated' || this.phase === 'held') return 'wait'
    if (entry.change.type !== 'item' || entry.change.item.role !== 'assistant') return 'now'
    // A client without captions sees the answer's text as it starts playing (as Micdrop does)
    const { captions, known } = this.host
    return known && !captions && this.playback.startMs !== undefined ? 'preview' : 'wait'
  }

  /**
   * Its user turn's report, once final (`turnFailure`: what failed in the turn before the answer,
   * e.g. its STT); undefined for an answer to no turn.
   */
  turnReport(turnFailure?: TurnFailure): TurnReport | undefined {
    if (!this.turn || !this.final) return undefined
    // Its end's instants written on at once (the cast holds from the next line on)
    const times = this.times(this.turn) as TurnReport['times']
    times.producedAt = this.producedAt
    times.endedAt = Math.max(this.endedAt ?? 0, this.playbackTimes?.endAt ?? 0)
    const failure = this.failure ?? turnFailure
    const report: TurnReport = {
      outcome: failure ? 'failed' : outcomeOf(this.phase, this.outcome),
      times,
      metrics: turnMetrics(this.turn, times),
    }
    if (this.playbackTimes) report.playback = this.playbackTimes
    if (failure) report.failure = failure
    return report
  }

  /**
   * Its turn's instants and its own, in a new object: field by field (an object spread of the
   * turn's clock costed more than the rest of the answer's bookkeeping per turn).
   */
  private times(turn: TurnClock): TurnTimes {
    const times: TurnTimes = {
      stopAt: turn.stopAt,
      requestedAt: this.requestedAt,
      firstTextAt: this.firstTextAt,
      firstAudioAt: this.firstAudioAt,
      firstSentAt: this.firstSentAt,
    }
    if (turn.pausedAt !== undefined) times.pausedAt = turn.pausedAt
    if (turn.transcriptAt !== undefined) times.transcriptAt = turn.transcriptAt
    return times
  }

  /** How much of it the user heard by `now` (ms), by the client's report or the estimate. */
  heardAt(now: number, reportedMs?: number): number | undefined {
    if (this.playback.startMs === undefined) return undefined
    return this.playback.playedMs(now, reportedMs)
  }

  // ---- internals ----

  private readonly onText = (chunk: Buffer | string) => {
    if (!this.producing || chunk.length === 0) return
    const text = chunk.toString()
    this.firstTextAt ??= performance.now()
    this.spoken.text += text
    this.ttsInput?.push(text)
  }

  private readonly onTextEnd = () => {
    if (!this.producing || this.textEnded) return
    this.textEnded = true
    this.ttsInput?.push(null)
    if (this.spoken.text.length === 0) this.produced('silent')
  }

  private sendAudio(audio: Buffer) {
    const now = performance.now()
    const first = this.firstSentAt === undefined
    if (first) {
      this.firstSentAt = now
      // Before the audio: what the user paused is settled (dropped) first, then this plays
      this.host.answerAudible(this)
    }
    const ms = audioMs(audio.length)
    const { positionMs, startAt } = this.host.clock.send(ms, now)
    this.playback.sent(ms, positionMs, startAt)
    this.host.output.audio(audio, first)
    if (first) this.host.outbox.flush()
    this.sendCaptions()
  }

  private flushAudio() {
    const audio = this.withheldAudio ?? []
    this.withheldAudio = undefined
    for (const chunk of audio) this.sendAudio(chunk)
    this.sendCaptions()
    this.sendMetrics()
  }

  private sendFrame(name: MicdropServerCommand, payload?: unknown) {
    if (this.phase === 'gated') return void (this.withheldFrames ??= []).push([name, payload])
    if (name === 'SkipAnswer') this.skipSent = true
    this.host.output.send(name, payload)
  }

  /** `Caption` frames for the words whose place in the audio became known. */
  private sendCaptions() {
    const startMs = this.playback.startMs
    if (!this.host.captions || this.kind === 'speech' || startMs === undefined) return
    if (this.phase !== 'streaming' && this.phase !== 'playing') return
    for (const word of timedWords(this.spoken, this.captioned)) {
      this.host.output.send('Caption', { text: word.text, atMs: round(startMs + word.endMs) })
      this.captioned++
    }
  }

  private sendMetrics() {
    if (this.metricsSent || !this.turn || this.producing || this.firstSentAt === undefined) return
    this.metricsSent = true
    const times = this.times(this.turn)
    this.host.output.metrics(turnMetrics(this.turn, times), times)
  }

  /** Production ended. */
  private produced(outcome: AnswerOutcome) {
    if (!this.producing) return
    this.producedAt = performance.now()
    if (outcome === 'failed') this.saveUnsaved()
    this.outcome = outcome
    this.spoken.complete = outcome === 'spoken'
    this.detach()
    const { tts, agent, output } = this.host
    if (outcome !== 'spoken') {
      // The TTS may still hold text of this answer: no audio of it may come later.
      tryCancel(tts, output)
      if (outcome === 'failed' && this.kind === 'answer') tryCancel(agent, output)
    }
    if (outcome !== 'spoken' && !this.skipped) this.sendFrame('SkipAnswer')
    this.sendCaptions()
    this.sendMetrics()
    output.answerEnd(outcome)
    this.host.answerProduced(this)
    this.afterProduction()
  }

  /**
   * The answer failed midway (its TTS did) before the agent saved the text it had spoken: that
   * text is saved now, in its place in the conversation, and later cut to what the user hears of
   * it (items added meanwhile, the user's next words, come after it).
   */
  private saveUnsaved() {
    if (this.kind === 'speech' || this.firstAudioAt === undefined) return
    const unsaved = this.spoken.text.slice(this.unsavedFrom()).trim()
    // While still producing: the agent's Message event comes back to this answer (`saved`)
    if (unsaved) this.host.agent.addAssistantMessage(unsaved)
  }

  /** Once production ended, a streaming answer plays out (or ends, with nothing sent). */
  private afterProduction() {
    if (this.phase !== 'streaming' || this.producing) return
    if (this.playback.sentMs === 0) return this.end(this.outcome === 'failed' ? 'failed' : 'silent')
    this.phase = 'playing'
    // The client may have said so already (it played all there was before production ended)
    if (this.host.reportsPlaybackEnd) this.playedTo(this.host.clock.reportedMs)
    if (this.final) return
    this.awaitPlayedOut()
  }

  /**
   * Ends a playing answer once its client surely played it all. For a client that reports its
   * playback's end, the estimate is only a fallback; the client may say so after this answer
   * began playing (its `Hello` comes after the greeting's audio), so that is read when due.
   * `armedWith`: the allowance of the timer that is calling. A timer fires by the event loop's
   * clock, which lags `performance.now()` by the loop's current iteration: when it fires for the
   * same allowance the answer is due, and reading the clock again would only arm it once more.
   */
  private awaitPlayedOut(armedWith?: number) {
    const allowance = this.host.reportsPlaybackEnd ? REPORT_FALLBACK_MS : 0
    const delay = this.playback.playEndAt + allowance - performance.now()
    if (delay > 0 && armedWith !== allowance) {
      // In whole ms: Node keeps one list of timers per duration
      this.heardTimer = setTimeout(() => this.awaitPlayedOut(allowance), Math.ceil(delay))
      return
    }
    this.endPlayedOut()
  }

  /**
   * For a client that does not report its playback: a playing answer whose estimated end is
   * reached by `now`, or within its timer's resolution, was heard to its end; it ends so (the
   * user spoke right at its end, before the timer fired).
   */
  endIfPlayedOut(now: number): void {
    if (this.phase !== 'playing' || this.host.reportsPlaybackEnd) return
    if (now < this.playback.playEndAt - TIMER_RESOLUTION_MS) return
    this.endPlayedOut()
  }

  /** All that was sent played out, as estimated. */
  private endPlayedOut() {
    this.end(this.spoken.complete ? 'heard' : 'cut', this.playback.sentMs, {
      at: this.playback.playEndAt,
      source: 'estimated',
    })
  }

  /**
   * The answer reaches its final phase, keeping the `heardMs` the user heard of it; `heard`: when
   * its playback ended, and how that is known.
   */
  private end(
    phase: 'heard' | 'cut' | 'silent' | 'failed',
    heardMs = 0,
    heard?: { at: number; source: PlaybackTimes['source'] }
  ) {
    clearTimeout(this.heardTimer)
    const now = performance.now()
    this.endedAt = now
    if (this.firstSentAt !== undefined) {
      this.playbackTimes = {
        startAt: this.firstSentAt,
        endAt: Math.max(this.firstSentAt, heard?.at ?? now),
        heardMs: round(heardMs),
        sentMs: round(this.playback.sentMs),
        source: heard?.source ?? 'estimated',
      }
    }
    const wasProducing = this.producing
    if (wasProducing) this.producedAt = now
    this.phase = phase
    this.withheldAudio = undefined
    this.withheldFrames = undefined
    if (wasProducing) {
      this.outcome = 'cancelled'
      this.detach()
      tryCancel(this.host.tts, this.host.output)
      if (this.kind === 'answer') tryCancel(this.host.agent, this.host.output)
      this.host.output.answerEnd('cancelled')
    }
    if (this.kind !== 'speech') this.keepHeard(phase === 'heard', heardMs)
    this.answered =
      this.acted || this.savedHeard || this.messages.some(({ entry }) => !entry.dropped)
    this.host.outbox.flush()
    this.host.answerFinal(this)
  }

  /**
   * The conversation keeps what the user heard: each assistant message whole if it was all played,
   * cut after its last word heard (flagged `interrupted`), or removed when none of it was heard.
   * Text heard that the agent never saved (it was cancelled or failed first) is saved as heard.
   */
  private keepHeard(all: boolean, playedMs: number) {
    const { agent } = this.host
    const { text } = this.spoken
    // To the ms, as the metadata says it: the text kept is the words that end within `heardMs`
    const heardMs = Math.round(playedMs)
    const heardTo = all ? text.length : heardChars(this.spoken, heardMs)
    const metadata = (fullContent: string): InterruptedMetadata => ({
      interrupted: true,
      fullContent,
      heardMs,
    })
    this.messages.forEach((message, index) => {
      if (message.entry.change.type !== 'item') return
      const item = message.entry.change.item as MicdropConversationMessage
      // A message saved before its text was spoken (the first message) says all that follows it
      const to = message.to > message.from ? message.to : this.messages[index + 1]?.from
      const wholeHeard =
        all || (to === undefined ? this.spoken.complete && heardTo >= text.length : heardTo >= to)
      if (wholeHeard) return
      const heard = text.slice(message.from, Math.max(message.from, heardTo)).trim()
      if (!heard) {
        agent.removeMessage(item)
        message.entry.dropped = true
        return
      }
      const cut = agent.updateMessage(item, {
        content: heard,
        metadata: { ...item.metadata, ...metadata(item.content) },
      })
      if (cut) message.entry.change = { type: 'item', item: cut }
    })
    // Text spoken after the last message the agent saved (it was cancelled or failed first)
    const from = this.unsavedFrom()
    const unsaved = text.slice(from, heardTo).trim()
    if (!unsaved) return
    this.savedHeard = true
    if (heardTo >= text.length) agent.addAssistantMessage(unsaved)
    else agent.addAssistantMessage(unsaved, metadata(text.slice(from).trim()))
  }

  /**
   * Where the text no message holds starts: after the last saved message, or nowhere when that
   * message was saved before its text was spoken (the first message: it says all that follows).
   */
  private unsavedFrom(): number {
    const last = this.messages.at(-1)
    if (!last) return 0
    return last.to > last.from ? last.to : this.spoken.text.length
  }

  private detach() {
    const text = this.textStream
    if (text) {
      text.off('data', this.onText)
      text.off('end', this.onTextEnd)
      text.off('error', this.onTextEnd)
    }
    this.textStream = undefined
    this.ttsInput?.destroy()
    this.ttsInput = undefined
  }
}

/** A final answer's turn outcome, from its phase and how its production ended. */
function outcomeOf(phase: AnswerPhase, production: AnswerOutcome | undefined): TurnOutcome {
  if (production === 'failed' || phase === 'failed') return 'failed'
  if (phase === 'heard') return 'answered'
  if (phase === 'silent') return 'skipped'
  return 'interrupted'
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

function tryCancel(part: { cancel(): void }, output: CallOutput) {
  try {
    part.cancel()
  } catch (error) {
    output.log('Cancel threw:', error)
  }
}
