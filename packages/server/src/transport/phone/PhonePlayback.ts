import { EventEmitter } from 'eventemitter3'
import { encodeMulaw, MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import type { MediaStreamCommand } from './media-stream-messages.js'

/** μ-law 8 kHz: 8 bytes a ms; a Twilio frame is 20 ms. */
const BYTES_PER_MS = 8
const FRAME_BYTES = 160
const FRAME_MS = 20
const SILENCE = 0xff

export interface PhonePlaybackOptions {
  /** Audio sent to the carrier ahead of what it played (ms): what a barge-in may drop. */
  aheadMs: number
  /** A mark every so much audio (ms): how exactly playback is known. */
  markEveryMs: number
  /** Sends one message to the carrier. */
  send: (command: MediaStreamCommand) => void
  now?: () => number
}

export interface PhonePlaybackEvents {
  /** Everything sent was played: the position (ms of all the call's assistant audio). */
  PlayedOut: [positionMs: number]
}

interface SentMark {
  name: string
  /** Position at the end of the audio before the mark. */
  positionMs: number
}

/**
 * The assistant's audio on a phone line: PCM16 16 kHz in, μ-law 8 kHz out in whole 20 ms frames,
 * never more than `aheadMs` queued at the carrier, and where playback is known from the marks it
 * sends back. Positions count in ms of all the assistant audio given (the call's `Played` scale).
 */
export class PhonePlayback extends EventEmitter<PhonePlaybackEvents> {
  private resampler = new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: 8000 })
  /** μ-law not sent yet, and its position. */
  private pending = Buffer.alloc(0)
  private pendingStartMs = 0
  /** Sent and not known to be played: its bytes (to send again after a pause) and position. */
  private unplayed = Buffer.alloc(0)
  private unplayedStartMs = 0
  private marks: SentMark[] = []
  private markSeq = 0
  private sinceMarkMs = 0
  private playedMs = 0
  private playedAt = 0
  private paused = false
  /** Resolvers of `whenPlayedOut()`, settled when the line goes quiet. */
  private waiting: Array<() => void> = []
  private readonly now: () => number

  constructor(private readonly options: PhonePlaybackOptions) {
    super()
    this.now = options.now ?? (() => performance.now())
  }

  /** Audio is queued or playing at the carrier. */
  get isPlaying(): boolean {
    return !this.paused && (this.marks.length > 0 || this.pending.length > 0)
  }

  /**
   * Resolves once nothing is queued nor playing: at once if the line is quiet, else when the last
   * mark comes back or the audio is dropped. A paused answer is waited for (it may resume).
   */
  whenPlayedOut(): Promise<void> {
    if (!this.isPlaying && !this.paused) return Promise.resolve()
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Assistant audio (PCM16 16 kHz). */
  audio(pcm16k: Buffer): void {
    const mulaw = encodeMulaw(this.resampler.write(pcm16k))
    if (this.pending.length === 0 && this.marks.length === 0 && !this.paused) {
      this.pendingStartMs = this.endMs()
    }
    this.pending = Buffer.concat([this.pending, mulaw])
    this.pump()
  }

  /** A mark came back: the audio before it was played (or cleared, if it was sent before a clear). */
  mark(name: string): void {
    const index = this.marks.findIndex((mark) => mark.name === name)
    if (index < 0) return // cleared, or not ours
    const mark = this.marks[index]!
    this.marks.splice(0, index + 1)
    const playedBytes = Math.round((mark.positionMs - this.unplayedStartMs) * BYTES_PER_MS)
    this.unplayed = this.unplayed.subarray(Math.max(0, playedBytes))
    this.unplayedStartMs = mark.positionMs
    this.playedMs = mark.positionMs
    this.playedAt = this.now()
    this.pump()
    if (this.marks.length === 0 && this.pending.length === 0 && !this.paused) {
      this.emit('PlayedOut', this.playedMs)
      this.settle()
    }
  }

  /** Where playback is now: the last mark back, and the time since, within the next mark. */
  position(): number {
    const next = this.marks[0]
    if (!next) return this.playedMs
    return Math.min(next.positionMs, this.playedMs + (this.now() - this.playedAt))
  }

  /**
   * Stops the carrier's playback and keeps what was not played, to go on with `resume()`.
   * Returns where it stopped.
   */
  pause(): number {
    const at = this.stop()
    this.paused = true
    const heardBytes = Math.round((at - this.unplayedStartMs) * BYTES_PER_MS)
    this.pending = Buffer.concat([this.unplayed.subarray(Math.max(0, heardBytes)), this.pending])
    this.pendingStartMs = at
    this.unplayed = Buffer.alloc(0)
    this.unplayedStartMs = at
    return at
  }

  /** Plays on from where `pause()` stopped. */
  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.playedMs = this.pendingStartMs
    this.pump()
  }

  /** Drops everything given so far (played or not); returns where playback stopped. */
  drop(): number {
    const at = this.paused ? this.pendingStartMs : this.stop()
    this.paused = false
    this.pending = Buffer.alloc(0)
    this.unplayed = Buffer.alloc(0)
    this.resampler = new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: 8000 })
    this.playedMs = at
    this.settle()
    return at
  }

  /** Position after all the audio given so far. */
  private endMs(): number {
    return Math.max(this.pendingStartMs + this.pending.length / BYTES_PER_MS, this.playedMs)
  }

  private settle() {
    for (const resolve of this.waiting.splice(0)) resolve()
  }

  private stop(): number {
    const at = this.position()
    if (this.marks.length > 0 || this.unplayed.length > 0) this.options.send({ event: 'clear' })
    this.marks = []
    this.playedMs = at
    return at
  }

  private aheadMs(): number {
    const sentEnd = this.unplayedStartMs + this.unplayed.length / BYTES_PER_MS
    return sentEnd - this.position()
  }

  private pump() {
    if (this.paused) return
    while (this.pending.length > 0 && this.aheadMs() < this.options.aheadMs) {
      let frame = this.pending.subarray(0, FRAME_BYTES)
      // A last piece shorter than a frame waits for more audio, unless the line would go quiet
      if (frame.length < FRAME_BYTES && this.aheadMs() > FRAME_MS * 2) return
      const realMs = frame.length / BYTES_PER_MS
      if (frame.length < FRAME_BYTES) {
        frame = Buffer.concat([frame, Buffer.alloc(FRAME_BYTES - frame.length, SILENCE)])
      }
      this.pending = this.pending.subarray(Math.min(FRAME_BYTES, this.pending.length))
      if (this.unplayed.length === 0 && this.marks.length === 0) {
        // The line was quiet: playback starts now, from here
        this.unplayedStartMs = this.pendingStartMs
        this.playedMs = this.pendingStartMs
        this.playedAt = this.now()
      }
      this.unplayed = Buffer.concat([this.unplayed, frame.subarray(0, realMs * BYTES_PER_MS)])
      this.pendingStartMs += realMs
      this.options.send({ event: 'media', payload: frame.toString('base64') })
      this.sinceMarkMs += FRAME_MS
      // A piece shorter than a frame left behind waits for the next mark's echo to be sent (see
      // above): that mark must exist, or the piece would wait forever
      if (this.sinceMarkMs >= this.options.markEveryMs || this.pending.length < FRAME_BYTES) {
        this.sinceMarkMs = 0
        const name = `m${++this.markSeq}`
        this.marks.push({ name, positionMs: this.pendingStartMs })
        this.options.send({ event: 'mark', name })
      }
    }
  }
}
