import type { CallLog } from './call-log.js'

/** What the client did with the audio of one answer (one `speak()`, by its tag). */
export interface AnswerPlayback {
  tag: number
  /** Audio of it received (ms). */
  receivedMs: number
  /** Audio of it played (ms): always a prefix of its audio. */
  playedMs: number
  /** Audio of it dropped: at a barge-in, or on arrival (ms). */
  droppedMs: number
  /** When its first audio started to play. */
  firstPlayedAt?: number
  /** When the last of its audio that played ended. */
  playedUntil?: number
  /** When some of it was first dropped: the user stopped hearing it then. */
  droppedAt?: number
}

/** The instant the user stopped hearing an answer: dropped, or played to its last audio. */
export function heardUntil(playback: AnswerPlayback): number | undefined {
  return playback.droppedAt ?? playback.playedUntil
}

interface Queued {
  tag: number
  ms: number
}

type Mode = 'idle' | 'playing' | 'paused'

/**
 * The client's speaker on virtual time, as openmic's `Speaker` plays: chunks back to back from
 * when they arrive, `prebufferMs` late when the queue was empty; paused in place; stopped at once.
 * Its position (what `Played` reports) is the audio received minus the audio queued.
 */
export class SimulatedSpeaker {
  receivedMs = 0
  readonly answers = new Map<number, AnswerPlayback>()
  private queue: Queued[] = []
  private mode: Mode = 'idle'
  /** While playing: when the head of the queue (as it stands) starts or started playing. */
  private playFrom = 0
  private endTimer?: ReturnType<typeof setTimeout>
  private readonly listeners = new Set<() => void>()
  private readonly ranOutListeners = new Set<() => void>()

  constructor(
    private readonly prebufferMs: number,
    private readonly log: CallLog
  ) {}

  /** Audio is queued and not paused (possibly still in its prebuffer). */
  get isPlaying(): boolean {
    this.sync()
    return this.mode === 'playing'
  }

  get isPaused(): boolean {
    return this.mode === 'paused'
  }

  /** Audio queued and not played yet (ms). */
  get queuedMs(): number {
    this.sync()
    return this.queue.reduce((sum, item) => sum + item.ms, 0)
  }

  /** The position reached in the call's assistant audio (ms): received minus queued. */
  get positionMs(): number {
    return this.receivedMs - this.queuedMs
  }

  /** How long until everything queued has played, as if it played on from now (ms). */
  get remainingMs(): number {
    const queued = this.queuedMs
    if (this.mode !== 'playing') return queued
    return Math.max(0, this.playFrom - Date.now()) + queued
  }

  /** When the run playing now started or starts (after its prebuffer); undefined when not playing. */
  get runStartsAt(): number | undefined {
    return this.isPlaying ? this.playFrom : undefined
  }

  /** When playback will reach `positionMs`, if it is playing and has that much queued. */
  timeAtPosition(positionMs: number): number | undefined {
    if (!this.isPlaying) return undefined
    const ahead = positionMs - this.positionMs
    if (ahead > this.queuedMs) return undefined
    return Math.max(this.playFrom, Date.now()) + Math.max(0, ahead)
  }

  /** Called after every change of what plays (start, end, pause, resume, drop). */
  /** Called when everything received was played (not when playback is stopped). */
  onRanOut(listener: () => void): void {
    this.ranOutListeners.add(listener)
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener)
  }

  /** Queues a chunk that arrived now. */
  play(tag: number, ms: number): void {
    this.sync()
    this.receivedMs += ms
    this.answer(tag).receivedMs += ms
    this.queue.push({ tag, ms })
    if (this.mode === 'idle') {
      this.mode = 'playing'
      this.playFrom = Date.now() + this.prebufferMs
      this.log.add({ type: 'client', action: 'play', tag, startsAtMs: this.playFrom })
      this.changed()
    }
    if (this.mode === 'playing') this.armEnd()
  }

  /** Drops a chunk that arrived now (the user is speaking, or the call is muted). */
  dropIncoming(tag: number, ms: number): void {
    this.sync()
    this.receivedMs += ms
    const answer = this.answer(tag)
    answer.receivedMs += ms
    answer.droppedMs += ms
    answer.droppedAt ??= Date.now()
    this.log.add({ type: 'client', action: 'drop-incoming', tag, ms })
  }

  /** Pauses where it is (or, idle, before what comes next): what arrives queues behind it. */
  pause(): void {
    this.sync()
    if (this.mode === 'paused') return
    this.mode = 'paused'
    clearTimeout(this.endTimer)
    this.log.add({ type: 'client', action: 'pause', positionMs: this.positionMs })
    this.changed()
  }

  resume(): void {
    if (this.mode !== 'paused') return
    this.mode = this.queue.length > 0 ? 'playing' : 'idle'
    this.playFrom = Date.now()
    this.log.add({ type: 'client', action: 'resume', positionMs: this.positionMs })
    if (this.mode === 'playing') this.armEnd()
    this.changed()
  }

  /** Stops playback and drops everything queued. */
  stop(): void {
    this.sync()
    clearTimeout(this.endTimer)
    const was = this.mode
    this.mode = 'idle'
    if (this.queue.length === 0) {
      if (was !== 'idle') this.changed()
      return
    }
    const now = Date.now()
    let droppedMs = 0
    for (const { tag, ms } of this.queue) {
      const answer = this.answer(tag)
      answer.droppedMs += ms
      answer.droppedAt ??= now
      droppedMs += ms
    }
    const tags = [...new Set(this.queue.map((item) => item.tag))]
    this.queue = []
    this.log.add({ type: 'client', action: 'drop', tags, droppedMs })
    this.changed()
  }

  /** Plays what was due up to now: moves the head of the queue along. */
  private sync(): void {
    if (this.mode !== 'playing') return
    const now = Date.now()
    let elapsed = now - this.playFrom
    if (elapsed <= 0) return
    let at = this.playFrom
    while (elapsed > 0 && this.queue.length > 0) {
      const head = this.queue[0]!
      const answer = this.answer(head.tag)
      const ms = Math.min(head.ms, elapsed)
      answer.firstPlayedAt ??= at
      answer.playedMs += ms
      head.ms -= ms
      elapsed -= ms
      at += ms
      if (head.ms <= 0) {
        this.queue.shift()
        answer.playedUntil = at
      } else {
        answer.playedUntil = at
      }
    }
    this.playFrom = now
    if (this.queue.length === 0) {
      this.mode = 'idle'
      clearTimeout(this.endTimer)
      this.log.add({ type: 'client', action: 'idle' })
      // Told from a timer of its own, never from within the caller's action.
      setTimeout(() => {
        for (const listener of this.ranOutListeners) listener()
        this.changed()
      }, 0)
    }
  }

  private armEnd() {
    clearTimeout(this.endTimer)
    const endsAt = this.playFrom + this.queue.reduce((sum, item) => sum + item.ms, 0)
    this.endTimer = setTimeout(() => this.sync(), Math.max(0, endsAt - Date.now()))
  }

  private answer(tag: number): AnswerPlayback {
    let answer = this.answers.get(tag)
    if (!answer) {
      answer = { tag, receivedMs: 0, playedMs: 0, droppedMs: 0 }
      this.answers.set(tag, answer)
    }
    return answer
  }

  private changed() {
    for (const listener of this.listeners) listener()
  }
}
