import { EventEmitter } from 'eventemitter3'
import { encodeMulaw, MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import type { MediaStreamCommand } from './media-stream-messages.js'

/** μ-law 8 kHz: 8 bytes a ms; a carrier's frame is 20 ms. */
const BYTES_PER_MS = 8
const FRAME_BYTES = 160
const FRAME_MS = 20
const SILENCE = 0xff
/** The assistant's audio as given: PCM16 16 kHz, 32 bytes a ms. */
const PCM_BYTES_PER_MS = 32

export interface PhonePlaybackOptions {
  /**
   * Audio sent to the carrier ahead of what it played (ms): what a barge-in may drop. At least
   * one frame (20 ms); below about 100 ms the line stutters as soon as the network is slower.
   */
  aheadMs: number
  /** A mark every so much audio (ms, at least one frame): how exactly playback is known. */
  markEveryMs: number
  /** Sends one message to the carrier. */
  send: (command: MediaStreamCommand) => void
  now?: () => number
}

export interface PhonePlaybackEvents {
  /** Everything given was played: the position (ms of all the call's assistant audio). */
  PlayedOut: [positionMs: number]
}

interface SentMark {
  name: string
  /** Position at the end of the audio before the mark. */
  positionMs: number
}

/** A frame sent and not known to be played: its audio without padding, and where it ends. */
interface SentFrame {
  mulaw: Buffer
  endMs: number
}

/**
 * The assistant's audio on a phone line: PCM16 16 kHz in, μ-law 8 kHz out in whole 20 ms frames,
 * never more than `aheadMs` queued at the carrier, and where playback is known from the marks it
 * sends back. Positions count in ms of all the assistant audio given (the call's `Played` scale):
 * audio dropped unsent still counts, and what the carrier plays as padding does not.
 */
export class PhonePlayback extends EventEmitter<PhonePlaybackEvents> {
  private resampler = newResampler()
  /** The resampler was given audio it has not all returned yet (its filter looks ahead). */
  private resampling = false
  /** μ-law not sent yet, in frames of 160 bytes (the last may be shorter), and its position. */
  private pending: Buffer[] = []
  private pendingStartMs = 0
  /** Sent and not known to be played, in order (to send again after a pause). */
  private unplayed: SentFrame[] = []
  private marks: SentMark[] = []
  private markSeq = 0
  /** Audio sent since the last mark, in ms of frames. */
  private sinceMarkMs = 0
  /** All the audio given, in ms: where the next audio starts once everything is out. */
  private givenMs = 0
  private playedMs = 0
  private playedAt = 0
  private paused = false
  /** Resolvers of `whenPlayedOut()`, settled when the line goes quiet. */
  private waiting: Array<() => void> = []
  private readonly now: () => number

  constructor(private readonly options: PhonePlaybackOptions) {
    super()
    checkMs('aheadMs', options.aheadMs)
    checkMs('markEveryMs', options.markEveryMs)
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
    if (pcm16k.length === 0) return
    this.givenMs += pcm16k.length / PCM_BYTES_PER_MS
    this.resampling = true
    this.queue(encodeMulaw(this.resampler.write(pcm16k)))
    this.pump()
  }

  /** A mark came back: the audio before it was played (or cleared, if it was sent before a clear). */
  mark(name: string): void {
    const index = this.marks.findIndex((mark) => mark.name === name)
    if (index < 0) return // cleared, or not ours
    const mark = this.marks[index]!
    this.marks.splice(0, index + 1)
    while (this.unplayed[0] && this.unplayed[0].endMs <= mark.positionMs) this.unplayed.shift()
    this.playedMs = mark.positionMs
    this.playedAt = this.now()
    this.pump()
    if (!this.isPlaying && !this.paused) this.playedOut()
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
    // What was sent from `at` on goes again first, framed anew from there
    const rest: Buffer[] = []
    let from = this.pendingStartMs
    for (const frame of this.unplayed) {
      if (frame.endMs <= at) continue
      const startMs = frame.endMs - frame.mulaw.length / BYTES_PER_MS
      const skip = Math.max(0, Math.round((at - startMs) * BYTES_PER_MS))
      if (rest.length === 0) from = startMs + skip / BYTES_PER_MS
      rest.push(frame.mulaw.subarray(skip))
    }
    this.unplayed = []
    if (rest.length > 0) this.pending = toFrames(Buffer.concat([...rest, ...this.pending]))
    this.pendingStartMs = from
    this.playedMs = from
    return from
  }

  /** Plays on from where `pause()` stopped. */
  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.playedMs = this.pendingStartMs
    this.pump()
    if (!this.isPlaying) this.playedOut()
  }

  /** Drops everything given so far (played or not); returns where playback stopped. */
  drop(): number {
    const at = this.paused ? this.pendingStartMs : this.stop()
    this.paused = false
    this.pending = []
    this.unplayed = []
    this.resampler = newResampler()
    this.resampling = false
    // The audio dropped unsent still counts: the next audio's position is the call's
    this.pendingStartMs = this.givenMs
    this.playedMs = at
    this.settle()
    return at
  }

  /** Everything given was sent and played: positions are the call's again (see `flush`). */
  private playedOut() {
    if (this.pending.length === 0 && !this.resampling) {
      this.pendingStartMs = this.givenMs
      this.playedMs = this.givenMs
    }
    this.emit('PlayedOut', this.playedMs)
    this.settle()
  }

  private settle() {
    for (const resolve of this.waiting.splice(0)) resolve()
  }

  private stop(): number {
    const at = this.position()
    if (this.marks.length > 0 || this.unplayed.length > 0) this.options.send({ event: 'clear' })
    this.marks = []
    this.sinceMarkMs = 0
    this.playedMs = at
    return at
  }

  /** Audio sent and not known to be played, in ms. */
  private aheadMs(): number {
    const sent = this.unplayed.at(-1)
    return sent ? sent.endMs - this.position() : 0
  }

  /** Appends μ-law to the pending frames: the last short one is filled first. */
  private queue(mulaw: Buffer) {
    let offset = 0
    const last = this.pending.at(-1)
    if (last && last.length < FRAME_BYTES) {
      offset = Math.min(FRAME_BYTES - last.length, mulaw.length)
      this.pending[this.pending.length - 1] = Buffer.concat([last, mulaw.subarray(0, offset)])
    }
    this.pending.push(...toFrames(mulaw.subarray(offset)))
  }

  /**
   * The line is about to run dry: the audio the resampler still holds (its filter's look-ahead,
   * about 11 ms) goes too, else an answer's end would wait for the next answer to be sent, and
   * its last mark would never reach the end of what was given.
   */
  private flush() {
    if (!this.resampling) return
    this.queue(encodeMulaw(this.resampler.end()))
    this.resampler = newResampler()
    this.resampling = false
  }

  private pump() {
    if (this.paused) return
    while (this.aheadMs() < this.options.aheadMs) {
      // Within two frames of going quiet: a short piece goes, padded, rather than wait for more
      const runningDry = this.aheadMs() <= FRAME_MS * 2
      if (runningDry && !(this.pending[0]?.length === FRAME_BYTES)) this.flush()
      const frame = this.pending[0]
      if (!frame || (frame.length < FRAME_BYTES && !runningDry)) break
      this.pending.shift()
      this.sendFrame(frame)
      if (this.sinceMarkMs >= this.options.markEveryMs) this.sendMark()
    }
    // The frames sent since the last mark get one of their own when no echo would pump again:
    // nothing whole is left to send (its echo says the line went quiet, or lets a short piece
    // go), or they fill the line by themselves (an `aheadMs` of no more than the mark spacing)
    const waiting = this.pending[0]?.length !== FRAME_BYTES
    if (this.sinceMarkMs > 0 && (waiting || this.sinceMarkMs >= this.options.aheadMs)) {
      this.sendMark()
    }
  }

  private sendFrame(frame: Buffer) {
    if (this.unplayed.length === 0 && this.marks.length === 0) {
      // The line was quiet: playback starts now, from here
      this.playedMs = this.pendingStartMs
      this.playedAt = this.now()
    }
    this.pendingStartMs += frame.length / BYTES_PER_MS
    this.unplayed.push({ mulaw: frame, endMs: this.pendingStartMs })
    const whole =
      frame.length === FRAME_BYTES
        ? frame
        : Buffer.concat([frame, Buffer.alloc(FRAME_BYTES - frame.length, SILENCE)])
    this.options.send({ event: 'media', payload: whole.toString('base64') })
    this.sinceMarkMs += FRAME_MS
  }

  private sendMark() {
    this.sinceMarkMs = 0
    const name = `m${++this.markSeq}`
    this.marks.push({ name, positionMs: this.pendingStartMs })
    this.options.send({ event: 'mark', name })
  }
}

function newResampler(): Resampler {
  return new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: 8000 })
}

/** μ-law cut into 160-byte frames (the last may be shorter). */
function toFrames(mulaw: Buffer): Buffer[] {
  const frames: Buffer[] = []
  for (let offset = 0; offset < mulaw.length; offset += FRAME_BYTES) {
    frames.push(mulaw.subarray(offset, offset + FRAME_BYTES))
  }
  return frames
}

/** A duration option must be a finite number of ms of at least one frame. */
function checkMs(name: string, ms: number) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < FRAME_MS) {
    throw new RangeError(
      `${name} must be a number of ms of at least ${FRAME_MS} (one frame), got ${String(ms)}`
    )
  }
}
