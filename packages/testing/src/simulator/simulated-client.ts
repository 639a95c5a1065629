import {
  MicdropClientCommands,
  MicdropClientExtensions,
  encodeClientHello,
  encodePlayed,
  parseServerMessage,
  type MicdropCaption,
  type MicdropConversationItem,
} from '@openmic/core/protocol'
import { withChanges, type SeenChange } from './conversation-changes.js'
import { BYTES_PER_MS, tagOf } from './audio-tags.js'
import type { CallLog } from './call-log.js'
import type { ClientEnd } from './memory-socket.js'
import { SimulatedSpeaker } from './playback.js'

/** A conversation item as the client got it, and when. */
export interface ReceivedItem {
  item: MicdropConversationItem
  at: number
}

/**
 * The client of a simulated call, on virtual time. Two kinds:
 * - `openmic`: the target protocol (docs/protocol.md). `Hello {"captions":true,
 *   "reportsPlaybackEnd":true}` first; at the user's speech it pauses the answer (`Played` with
 *   `paused`, then `StartSpeaking`) when the server's `Hello` allowed it and audio is queued, and
 *   waits for `Resume` or `Interrupt` with no timeout of its own; otherwise it reports `Played`
 *   and drops the answer, and what of it is still on its way until the server's `Interrupt`
 *   (when its `Hello` said `settlesBargeIns`). It sends `Played` when its playback runs out. Captions
 *   show as playback reaches them. `EndCall` reaches the app once playback stopped; the app
 *   hangs up.
 * - `micdrop`: Micdrop's browser client. No extension frames; it drops the answer at the user's
 *   speech and hangs up at `EndCall`.
 * Both drop audio that arrives while the user speaks (and nothing is paused) or the call is muted.
 */
export class SimulatedClient {
  readonly speaker: SimulatedSpeaker
  /** The conversation as the client holds it. */
  readonly items: ReceivedItem[] = []
  /** What the caption shows now (openmic kind). */
  caption = ''
  /** The server's `Hello` allowed pausing (openmic kind). */
  serverResume = false
  /** The server's `Hello` said it settles every barge-in, once, in order (openmic kind). */
  serverSettlesBargeIns = false
  /** The server's `Hello` said it answers at pauses: the client sends `PauseSpeaking` (openmic kind). */
  serverPreemptive = false
  /** The user's speech ended; `StopSpeaking` waits for the end-of-speech silence. */
  private pendingStop?: { timer: ReturnType<typeof setTimeout>; paused: boolean }
  /** A cut answer's audio still on its way is discarded, until the server settles the barge-in. */
  private discardingCut = false
  /** Barge-ins the server has not settled yet (`StartSpeaking`, `Mute`). */
  private openBargeIns = 0
  /** Waiting for an answer: from `StopSpeaking` (and the start) until audio, `SkipAnswer`... */
  processing = true
  /** Holding a paused answer until `Resume` or `Interrupt`. */
  answerPaused = false
  endCallAt?: number
  /** What was left to play when `EndCall` came (ms). */
  endCallRemainingMs?: number
  closeCode?: number
  /** When the client hung up or learned the connection closed. */
  closedAt?: number
  /** Conversation changes that arrived once the client had left, in order. */
  private readonly lost: SeenChange[] = []
  /** The user hung up (a step), not the app at `EndCall`. */
  hungUpByUser = false
  private speaking = false
  private muted = false
  private captions: MicdropCaption[] = []
  private captionTimer?: ReturnType<typeof setTimeout>
  private readonly listeners = new Set<() => void>()

  constructor(
    readonly kind: 'openmic' | 'micdrop',
    private readonly end: ClientEnd,
    prebufferMs: number,
    private readonly log: CallLog,
    /** Silence after the user's speech before `StopSpeaking` (the client VAD's end of speech). */
    private readonly endSilenceMs = 0
  ) {
    this.speaker = new SimulatedSpeaker(prebufferMs, log)
    this.speaker.onChange(() => this.onPlaybackChange())
    // openmic's client tells the server its playback ran out: the answer was heard to its end
    this.speaker.onRanOut(() => {
      if (this.kind === 'openmic' && this.end.open) this.reportPlayed(false)
    })
  }

  get conversation(): MicdropConversationItem[] {
    return this.items.map((received) => received.item)
  }

  /** The conversation it would hold had it stayed for what was on its way when it left. */
  get stayedConversation(): MicdropConversationItem[] {
    return withChanges(this.conversation, this.lost)
  }

  get isOpen(): boolean {
    return this.end.open
  }

  /** Called after each change a waiting user may care about. */
  onChange(listener: () => void): void {
    this.listeners.add(listener)
  }

  connect(): void {
    if (this.kind === 'openmic') {
      this.end.sendText(encodeClientHello({ captions: true, reportsPlaybackEnd: true }))
    }
  }

  startSpeaking(): void {
    // Speech again before the end of speech: the same utterance goes on
    if (this.pendingStop) {
      clearTimeout(this.pendingStop.timer)
      if (this.pendingStop.paused) this.end.sendText(MicdropClientExtensions.ResumeSpeaking)
      this.pendingStop = undefined
      return
    }
    this.muted = false
    if (this.kind === 'openmic') {
      const pause = this.answerPaused || (this.serverResume && this.speaker.queuedMs > 0)
      this.reportPlayed(pause)
      this.end.sendText(MicdropClientCommands.StartSpeaking)
      this.bargedIn()
      if (pause) this.pauseAnswer()
      else this.cutAnswer()
    } else {
      this.end.sendText(MicdropClientCommands.StartSpeaking)
      this.dropAnswer()
    }
    this.speaking = true
    this.setProcessing(false)
  }

  sendAudio(audio: Buffer): void {
    this.end.sendAudio(audio)
  }

  stopSpeaking(): void {
    if (this.endSilenceMs > 0 && !this.pendingStop) {
      // A pause begins: a preemptive server hears of it at once, the end of speech comes later
      const paused = this.kind === 'openmic' && this.serverPreemptive
      if (paused) this.end.sendText(MicdropClientExtensions.PauseSpeaking)
      const timer = setTimeout(() => {
        this.pendingStop = undefined
        if (this.end.open) this.endSpeaking()
      }, this.endSilenceMs)
      this.pendingStop = { timer, paused }
      return
    }
    this.endSpeaking()
  }

  /** The client's end of speech. */
  private endSpeaking(): void {
    this.end.sendText(MicdropClientCommands.StopSpeaking)
    this.speaking = false
    this.setProcessing(this.end.open)
  }

  /** The user pauses the call: playback stops, the server is told (`Mute`). */
  mute(): void {
    this.cancelPendingStop()
    if (this.kind === 'openmic') this.reportPlayed(false)
    this.end.sendText(MicdropClientCommands.Mute)
    this.bargedIn()
    this.speaking = false
    this.muted = true
    this.answerPaused = false
    this.cutAnswer()
    this.setProcessing(false)
  }

  hangUp(byUser: boolean): void {
    if (!this.end.open) return
    this.hungUpByUser = byUser
    this.cancelPendingStop()
    // What was heard of the answer playing: the server keeps that much of it
    if (this.kind === 'openmic') this.reportPlayed(false)
    this.closedAt ??= Date.now()
    this.closeCode ??= 1000
    this.speaker.stop()
    this.end.close(1000)
    this.changed()
  }

  private cancelPendingStop() {
    if (this.pendingStop) clearTimeout(this.pendingStop.timer)
    this.pendingStop = undefined
  }

  // ---- from the server ----

  audio(audio: Buffer): void {
    const tag = tagOf(audio)
    const ms = audio.length / BYTES_PER_MS
    this.log.add({ type: 'received', frame: { kind: 'audio', bytes: audio.length, tag } })
    if (!this.end.open) return
    if (this.muted || this.discardingCut || (this.speaking && !this.answerPaused)) {
      this.speaker.dropIncoming(tag, ms)
      return
    }
    this.speaker.play(tag, ms)
    this.setProcessing(false)
  }

  text(text: string): void {
    const message = parseServerMessage(text)
    this.log.add({ type: 'received', frame: { kind: 'text', text, message } })
    if (!this.end.open) {
      if (message.type === 'Message') this.lost.push(message.item)
      if (message.type === 'CancelLastUserMessage') this.lost.push('cancel-last-user-message')
      return
    }
    switch (message.type) {
      case 'Message':
        this.items.push({ item: message.item, at: Date.now() })
        if (message.item.role === 'assistant') this.replaceCaption(message.item.content)
        return
      case 'CancelLastUserMessage': {
        const index = this.items.findLastIndex((received) => received.item.role === 'user')
        if (index !== -1) this.items.splice(index, 1)
        return this.setProcessing(false)
      }
      case 'SkipAnswer':
        return this.setProcessing(false)
      case 'EndCall':
        if (this.endCallAt === undefined) {
          this.endCallAt = Date.now()
          this.endCallRemainingMs = this.speaker.remainingMs
        }
        return this.kind === 'micdrop' ? this.endCall() : this.endCallOncePlayed()
      case 'Hello':
        if (this.kind !== 'openmic') return
        this.serverResume = message.hello.resume
        this.serverSettlesBargeIns = message.hello.settlesBargeIns
        this.serverPreemptive = message.hello.preemptive === true
        return
      case 'Resume':
        // A later barge-in still waits for its own verdict: the answer stays paused
        if (!this.settleBargeIn() || !this.answerPaused) return
        this.answerPaused = false
        this.speaker.resume()
        return this.changed()
      case 'Interrupt': {
        const last = this.settleBargeIn()
        if (last) this.discardingCut = false
        if (!this.answerPaused) return
        this.answerPaused = false
        this.dropAnswer()
        // A later pause still waits for its verdict: what comes next queues behind it
        if (!last) this.pauseAnswer()
        return this.changed()
      }
      case 'Caption':
        if (this.kind !== 'openmic') return
        this.captions.push(message.caption)
        return this.revealCaptions()
      default:
        return
    }
  }

  close(code: number): void {
    this.closeCode ??= code
    this.closedAt ??= Date.now()
    this.speaker.stop()
    this.changed()
  }

  // ---- internals ----

  /** `Played` before `StartSpeaking` and `Mute`, once there was assistant audio. */
  private reportPlayed(paused: boolean) {
    if (this.speaker.receivedMs === 0) return
    const ms = Math.max(0, Math.round(this.speaker.positionMs))
    this.end.sendText(encodePlayed({ ms, paused }))
  }

  private pauseAnswer() {
    this.answerPaused = true
    this.speaker.pause()
  }

  private bargedIn() {
    if (this.serverSettlesBargeIns) this.openBargeIns++
  }

  /** The server settled the oldest open barge-in; true when none is left open. */
  private settleBargeIn(): boolean {
    if (!this.serverSettlesBargeIns) return true
    this.openBargeIns = Math.max(0, this.openBargeIns - 1)
    return this.openBargeIns === 0
  }

  /** Barge-in: the answer is dropped, and what of it is still on its way if the server settles it. */
  private cutAnswer() {
    this.dropAnswer()
    this.discardingCut = this.serverSettlesBargeIns
  }

  private dropAnswer() {
    // Dropped audio counts in the position (it was received): the words it held were not reached.
    const reached = this.speaker.positionMs
    this.captions = this.captions.filter((caption) => caption.atMs <= reached)
    this.speaker.stop()
  }

  /** `EndCall` reaches the app once nothing plays; the app then hangs up. */
  private endCallOncePlayed() {
    if (!this.speaker.isPlaying) return this.endCall()
    const check = () => {
      if (this.speaker.isPlaying || !this.end.open || this.pendingEndCall !== check) return
      this.pendingEndCall = undefined
      this.endCall()
    }
    this.pendingEndCall = check
  }

  private pendingEndCall?: () => void

  private endCall() {
    this.log.add({ type: 'client', action: 'end-call', hangUp: true })
    this.hangUp(false)
  }

  private onPlaybackChange() {
    this.pendingEndCall?.()
    this.revealCaptions()
    this.changed()
  }

  /** Shows the captions playback has reached; waits for the next one. */
  private revealCaptions() {
    clearTimeout(this.captionTimer)
    this.captionTimer = undefined
    const position = this.speaker.positionMs
    while (this.captions.length > 0 && this.captions[0]!.atMs <= position) {
      const caption = this.captions.shift()!
      this.caption += caption.text
      this.log.add({ type: 'client', action: 'caption', text: caption.text, atMs: caption.atMs })
    }
    const next = this.captions[0]
    if (!next) return
    const at = this.speaker.timeAtPosition(next.atMs)
    if (at !== undefined) {
      this.captionTimer = setTimeout(() => this.revealCaptions(), at - Date.now())
    }
  }

  private replaceCaption(text: string | undefined) {
    this.captions = []
    clearTimeout(this.captionTimer)
    this.captionTimer = undefined
    this.caption = text ?? ''
  }

  private setProcessing(processing: boolean) {
    if (this.processing === processing) return
    this.processing = processing
    this.changed()
  }

  private changed() {
    for (const listener of this.listeners) listener()
  }
}
