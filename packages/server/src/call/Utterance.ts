import type { Readable } from 'node:stream'
import { createPushStream } from '../streams/push-stream.js'

/**
 * The audio of one utterance, from `StartSpeaking` to `StopSpeaking`. The STT is started with the
 * first audio chunk, so an utterance without audio costs no transcription.
 */
export class Utterance {
  bytes = 0
  /** The STT failed (or threw) while this utterance was open. */
  failed = false
  /** A (non-empty) transcript came while this utterance was open. */
  heard = false
  private stream?: Readable

  /** @param transcribe - starts the STT on the utterance's audio stream. */
  constructor(private readonly transcribe: (audio: Readable) => void) {}

  write(audio: Buffer): void {
    if (!this.stream) {
      this.stream = createPushStream()
      this.transcribe(this.stream)
    }
    this.bytes += audio.length
    this.stream.push(audio)
  }

  end(): void {
    this.stream?.push(null)
  }
}
