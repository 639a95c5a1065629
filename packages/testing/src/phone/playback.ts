import { PHONE_FRAME_BYTES } from './wire.js'

/** One frame of the server's audio, played at `atMs` (ms from the start of the stream). */
export interface HeardFrame {
  /** When it started playing: the tick that took it from the queue. */
  atMs: number
  /** Its μ-law bytes (160, or fewer when the queue ran dry inside the frame). */
  mulaw: Buffer
  /** Where it starts in all the audio heard (`heardAudio()`), in ms. */
  offsetMs: number
}

/** Audio dropped by a `clear`. */
export interface ClearedAudio {
  atMs: number
  /**
   * All the audio played before the `clear`, in ms (bytes / 8, the frame playing counted whole):
   * what the caller heard when the server stopped the line, whatever the clock did.
   */
  heardMs: number
  /** How much queued audio was dropped, in ms. */
  droppedMs: number
  /** The marks that were waiting behind it, sent back at once. */
  marks: string[]
}

type Queued = { kind: 'audio'; bytes: Buffer } | { kind: 'mark'; name: string }

/**
 * The phone's playback buffer for what the server sends: audio queued as it arrives and played
 * one 160-byte frame per tick, marks sent back (`echo`) once the audio queued before them has
 * played, and `clear` dropping the rest and sending back every waiting mark, as Twilio and Telnyx do.
 */
export class Playback {
  /** Every frame played, in order. */
  readonly frames: HeardFrame[] = []
  /** Every `clear`, with what it dropped. */
  readonly cleared: ClearedAudio[] = []
  private readonly queue: Queued[] = []
  /** Marks passed inside the frame now playing: due when it ends, at the next tick. */
  private dueAtNextTick: string[] = []
  private playingUntilMs = 0
  private heardBytes = 0

  constructor(private readonly echo: (name: string, cleared: boolean) => void) {}

  /** Queued audio not played yet, in ms. */
  get queuedMs(): number {
    let bytes = 0
    for (const item of this.queue) if (item.kind === 'audio') bytes += item.bytes.length
    return bytes / 8
  }

  /** All the audio played so far, in ms. */
  get heardMs(): number {
    return this.heardBytes / 8
  }

  addAudio(mulaw: Buffer): void {
    if (mulaw.length > 0) this.queue.push({ kind: 'audio', bytes: mulaw })
  }

  /** Queues a mark, or sends it back now when nothing is queued nor playing. */
  addMark(name: string, nowMs: number): void {
    const idle = this.queue.length === 0 && this.dueAtNextTick.length === 0
    if (idle && nowMs >= this.playingUntilMs) this.echo(name, false)
    else this.queue.push({ kind: 'mark', name })
  }

  /** Drops what is queued and sends back every mark waiting behind it. */
  clear(nowMs: number): ClearedAudio {
    const marks = [...this.dueAtNextTick]
    let bytes = 0
    for (const item of this.queue) {
      if (item.kind === 'mark') marks.push(item.name)
      else bytes += item.bytes.length
    }
    this.queue.length = 0
    this.dueAtNextTick = []
    const cleared = { atMs: nowMs, heardMs: this.heardMs, droppedMs: bytes / 8, marks }
    this.cleared.push(cleared)
    for (const name of marks) this.echo(name, true)
    return cleared
  }

  /** One 20 ms tick: the marks whose audio ended are sent back, then the next frame plays. */
  tick(nowMs: number): void {
    const due = this.dueAtNextTick
    this.dueAtNextTick = []
    for (const name of due) this.echo(name, false)
    for (let name = this.takeHeadMark(); name !== undefined; name = this.takeHeadMark()) {
      this.echo(name, false)
    }

    const parts: Buffer[] = []
    let filled = 0
    while (filled < PHONE_FRAME_BYTES && this.queue.length > 0) {
      const head: Queued = this.queue[0]!
      if (head.kind === 'mark') {
        // Reached inside this frame: its audio has played once the frame has.
        this.dueAtNextTick.push(head.name)
        this.queue.shift()
        continue
      }
      const take = Math.min(head.bytes.length, PHONE_FRAME_BYTES - filled)
      parts.push(head.bytes.subarray(0, take))
      filled += take
      if (take === head.bytes.length) this.queue.shift()
      else this.queue[0] = { kind: 'audio', bytes: head.bytes.subarray(take) }
    }
    // Marks right after the frame's audio are also due once it has played.
    for (let name = filled > 0 ? this.takeHeadMark() : undefined; name !== undefined;) {
      this.dueAtNextTick.push(name)
      name = this.takeHeadMark()
    }
    if (filled === 0) return
    const mulaw = Buffer.concat(parts)
    this.frames.push({ atMs: nowMs, mulaw, offsetMs: this.heardBytes / 8 })
    this.heardBytes += filled
    this.playingUntilMs = nowMs + filled / 8
  }

  /** Takes the mark at the head of the queue, if the head is a mark. */
  private takeHeadMark(): string | undefined {
    const head = this.queue[0]
    if (head?.kind !== 'mark') return undefined
    this.queue.shift()
    return head.name
  }
}
