import { MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import type { RealtimeSocket } from './RealtimeSocket.js'
import { REALTIME_SAMPLE_RATE } from './session-update.js'

/**
 * The state of one `transcribe()` call: its own resampler, audio not yet sent, and where its
 * transcription stands. Nothing here is shared with another utterance.
 */
export class Utterance {
  /** `streaming`: audio still coming; `committed`: waiting for the transcript; `done`. */
  state: 'streaming' | 'committed' | 'done' = 'streaming'
  /** True once `Transcript` or `Failed` was emitted for it: it emits nothing more. */
  settled = false
  /** The audio stream has ended. */
  ended = false
  /** Resampled audio waiting for its turn to be sent (an earlier utterance still streams). */
  readonly held: Buffer[] = []
  /** Bytes of 24 kHz audio handed to the socket. */
  sentBytes = 0
  /** The conversation item the server made of the commit. */
  itemId: string | undefined
  /** The text of the deltas so far. */
  text = ''
  /** Its transcript, kept until every earlier utterance has its outcome. */
  transcript: string | undefined
  timer: NodeJS.Timeout | undefined
  readonly resampler = new Resampler({
    fromRate: MICDROP_AUDIO_FORMAT.sampleRate,
    toRate: REALTIME_SAMPLE_RATE,
  })
  /** Stops listening to the audio stream. */
  detach: () => void = () => {}

  constructor(
    /** The `event_id` of its commit, so an error about that commit finds it. */
    readonly commitEventId: string,
    /** The connection its audio goes to. */
    readonly socket: RealtimeSocket
  ) {}

  clearTimer(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
