import {
  MicdropClientCommands,
  encodeClientHello,
  encodePlayed,
  parseServerMessage,
  type MicdropCaption,
  type MicdropConversationItem,
} from '@openmic/core/protocol'
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
 * - `openmic`: the target protocol (docs/protocol.md). `Hello {"captions":true}` first; at the
 *   user's speech it pauses the answer (`Played` with `paused`, then `StartSpeaking`) when the
 *   server's `Hello` allowed it and audio is queued, and waits for `Resume` or `Interrupt` with no
 *   timeout of its own; otherwise it reports `Played` and drops the answer. Captions show as
 *   playback reaches them. `EndCall` reaches the app once playback stopped; the app hangs up.
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
  /** Items that arrived after the client had left (they were on their way when it hung up). */
  readonly lost: MicdropConversationItem[] = []
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
    private readonly log: CallLog
  ) {
    this.speaker = new SimulatedSpeaker(prebufferMs, log)
    this.speaker.onChange(() => this.onPlaybackChange())
  }

  get conversation(): MicdropConversationItem[] {
    return this.items.map((received) => received.item)
  }

  get isOpen(): boolean {
    return this.end.open
  }

  /** Called after each change a waiting user may care about. */
  onChange(listener: () => void): void {
    this.listeners.add(listener)
  }

  connect(): void {
    if (this.kind === 'openmic') this.end.sendText(encodeClientHello({ captions: true }))
  }

  startSpeaking(): void {
    this.muted = false
    if (this.kind === 'openmic') {
      const pause = this.answerPaused || (this.serverResume && this.speaker.queuedMs > 0)
      this.reportPlayed(pause)
      this.end.sendText(MicdropClientCommands.StartSpeaking)
      if (pause) this.pauseAnswer()
      else this.dropAnswer()
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
    this.end.sendText(MicdropClientCommands.StopSpeaking)
    this.speaking = false
    this.setProcessing(this.end.open)
  }

  /** The user pauses the call: playback stops, the server is told (`Mute`). */
  mute(): void {
    if (this.kind === 'openmic') this.reportPlayed(false)
    this.end.sendText(MicdropClientCommands.Mute)
    this.speaking = false
    this.muted = true
    this.answerPaused = false
    this.dropAnswer()
    this.setProcessing(false)
  }

  hangUp(byUser: boolean): void {
    if (!this.end.open) return
    this.hungUpByUser = byUser
    this.closedAt ??= Date.now()
    this.closeCode ??= 1000
    this.speaker.stop()
    this.end.close(1000)
    this.changed()
  }

  // ---- from the server ----

  audio(audio: Buffer): void {
    const tag = tagOf(audio)
    const ms = audio.length / BYTES_PER_MS
    this.log.add({ type: 'received', frame: { kind: 'audio', bytes: audio.length, tag } })
    if (!this.end.open) return
    if (this.muted || (this.speaking && !this.answerPaused)) {
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
        if (this.kind === 'openmic') this.serverResume = message.hello.resume
        return
      case 'Resume':
        if (!this.answerPaused) return
        this.answerPaused = false
        this.speaker.resume()
        return this.changed()
      case 'Interrupt':
        if (!this.answerPaused) return
        this.answerPaused = false
        this.dropAnswer()
        return this.changed()
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
