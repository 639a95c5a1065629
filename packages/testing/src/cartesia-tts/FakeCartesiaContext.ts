import { audioMs } from '@openmic/core/provider'
import type { FakeCartesiaTTSReply } from './types.js'

/** A generation request as the client sent it (the fields the fake reads, and the rest). */
export interface RecordedGenerationRequest {
  context_id: string
  transcript: string
  continue?: boolean
  add_timestamps?: boolean
  [field: string]: unknown
}

/** One context of the fake TTS: what the client sent for it and what the fake did. */
export class FakeCartesiaContext {
  /** Every generation request of this context, in order. */
  readonly requests: RecordedGenerationRequest[] = []
  /** The client sent `{ context_id, cancel: true }`. */
  cancelled = false
  /** The client sent `continue: false`: no more text comes. */
  ended = false
  /** `done` was sent. */
  done = false
  /** Bytes of audio sent for it. */
  audioBytes = 0

  constructor(
    readonly id: string,
    /** The connection it arrived on (index in `fake.connections`). */
    readonly connection: number,
    /** What the fake does with it (scripted when it first appeared). */
    readonly reply: FakeCartesiaTTSReply
  ) {}

  /** The context's text: every transcript, joined. */
  get transcript(): string {
    return this.requests.map((request) => request.transcript).join('')
  }

  /** Milliseconds of audio sent so far (PCM16 16 kHz). */
  get audioMs(): number {
    return audioMs(this.audioBytes)
  }
}
