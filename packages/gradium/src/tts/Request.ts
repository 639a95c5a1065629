import { MICDROP_AUDIO_FORMAT, Pcm16Aligner, Resampler } from '@openmic/core/provider'
import type { GradiumConnection } from '../connection.js'

/**
 * One `speak()`: a request multiplexed on the socket under its own `client_req_id`, its text not
 * sent yet, and its audio's conversion to PCM16 16 kHz. Nothing here is shared with another one.
 */
export class Request {
  /** The socket it is set up on (undefined until its `setup` is sent). */
  socket: GradiumConnection | undefined
  /** The server answered its `setup` with `ready`: text may flow. */
  ready = false
  /** Text received and not sent yet. */
  pending = ''
  /** Some of its text is on the wire: it can never be sent again elsewhere. */
  textSent = false
  /** Its text stream has ended. */
  textEnded = false
  /** Its `end_of_stream` is sent. */
  eosSent = false
  /** Waits for an answer Gradium owes (see `stallTimeoutMs`). */
  timer: ReturnType<typeof setTimeout> | undefined
  /** Stops following its text stream. */
  detach: () => void = () => {}
  private readonly resampler: Resampler | undefined
  /** Holds a byte of a sample split across two audio messages. */
  private readonly aligner = new Pcm16Aligner()

  constructor(
    /** Its `client_req_id`. */
    readonly id: string,
    sampleRate: number
  ) {
    const toRate = MICDROP_AUDIO_FORMAT.sampleRate
    this.resampler =
      sampleRate === toRate ? undefined : new Resampler({ fromRate: sampleRate, toRate })
  }

  /** Adds a chunk of the text stream. */
  append(text: string): void {
    this.pending += text
  }

  /** The text stream has ended. */
  end(): void {
    this.textEnded = true
  }

  /**
   * The text to send now: whole words only (up to the last blank) while the text goes on, since
   * Gradium reads what it is given as words; all of it once the text has ended.
   */
  takeText(): string {
    const cut = this.textEnded ? this.pending.length : lastBlank(this.pending) + 1
    const text = this.pending.slice(0, cut)
    this.pending = this.pending.slice(cut)
    return text
  }

  /** PCM16 16 kHz of one audio message, whole samples only. */
  convert(audio: Buffer): Buffer {
    return this.resampler ? this.resampler.write(audio) : this.aligner.write(audio)
  }

  /** The audio still held once the request's audio has ended. */
  tail(): Buffer {
    return this.resampler ? this.resampler.end() : Buffer.alloc(0)
  }

  clearTimer(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }
}

function lastBlank(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text[i]!)) return i
  return -1
}
