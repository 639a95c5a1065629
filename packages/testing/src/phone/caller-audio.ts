import { Resampler, encodeMulaw } from '@openmic/core/provider'
import { MULAW_SILENCE, PHONE_FRAME_BYTES } from './wire.js'

/** μ-law bytes per ms at 8 kHz. */
const BYTES_PER_MS = 8

/** One utterance of the caller, on the stream's timeline (ms from the start of the stream). */
export interface CallerUtterance {
  /** When its first byte is sent, in stream ms (a multiple of 0.125: one μ-law sample). */
  startMs: number
  /** When its last byte is sent. */
  endMs: number
  /** Its μ-law bytes. */
  mulaw: Buffer
}

/** How {@link CallerAudio.say} reads its audio. */
export interface SayOptions {
  /** `'pcm16'` (default): PCM16 little-endian 16 kHz, resampled to 8 kHz. `'mulaw'`: 8 kHz as is. */
  format?: 'pcm16' | 'mulaw'
  /**
   * Start no earlier than this, in ms from the start of the stream (default: right after what is
   * queued, or at the next frame when nothing is). Silence fills the gap.
   */
  atMs?: number
}

/**
 * What the caller says, as a queue of μ-law bytes cut into 160-byte frames: scripted speech and
 * silences in order, and silence (0xFF) whenever nothing is queued. Times are stream time (bytes
 * sent / 8), so an utterance's start and end are exact whatever the timers did.
 */
export class CallerAudio {
  /** Every utterance queued, in order. */
  readonly utterances: CallerUtterance[] = []
  private readonly queue: Buffer[] = []
  private queued = 0
  /** Bytes taken by `nextFrame()` so far (the stream position). */
  private sent = 0

  /** Queues speech; returns its place on the timeline. */
  say(audio: Buffer, options: SayOptions = {}): CallerUtterance {
    const mulaw = options.format === 'mulaw' ? Buffer.from(audio) : toMulaw8k(audio)
    if (options.atMs !== undefined) {
      const gap = Math.round(options.atMs * BYTES_PER_MS) - this.endByte
      if (gap > 0) this.push(Buffer.alloc(gap, MULAW_SILENCE))
    }
    const start = this.endByte
    this.push(mulaw)
    const utterance = {
      startMs: start / BYTES_PER_MS,
      endMs: (start + mulaw.length) / BYTES_PER_MS,
      mulaw,
    }
    this.utterances.push(utterance)
    return utterance
  }

  /** Queues `ms` of silence after what is queued (a pause between two utterances). */
  silence(ms: number): void {
    this.push(Buffer.alloc(Math.round(ms * BYTES_PER_MS), MULAW_SILENCE))
  }

  /** True while queued audio has not all been sent. */
  get speaking(): boolean {
    return this.queued > 0
  }

  /** The next frame: 160 bytes of what is queued, padded with silence. */
  nextFrame(): Buffer {
    const frame = Buffer.alloc(PHONE_FRAME_BYTES, MULAW_SILENCE)
    let filled = 0
    while (filled < PHONE_FRAME_BYTES && this.queue.length > 0) {
      const head = this.queue[0]!
      const take = Math.min(head.length, PHONE_FRAME_BYTES - filled)
      head.copy(frame, filled, 0, take)
      filled += take
      if (take === head.length) this.queue.shift()
      else this.queue[0] = head.subarray(take)
    }
    this.queued -= filled
    this.sent += PHONE_FRAME_BYTES
    return frame
  }

  /** Where the queue ends, in bytes of the stream: now when nothing is queued. */
  private get endByte(): number {
    return this.sent + this.queued
  }

  private push(bytes: Buffer): void {
    if (bytes.length === 0) return
    this.queue.push(bytes)
    this.queued += bytes.length
  }
}

/** PCM16 16 kHz to μ-law 8 kHz, band-limited by core's resampler. */
function toMulaw8k(pcm16k: Buffer): Buffer {
  const resampler = new Resampler({ fromRate: 16_000, toRate: 8_000 })
  return encodeMulaw(Buffer.concat([resampler.write(pcm16k), resampler.end()]))
}
