import { PassThrough } from 'node:stream'

/**
 * The audio of one utterance, from `StartSpeaking` to `StopSpeaking`. The STT is started with the
 * first audio chunk, so an utterance without audio costs no transcription.
 */
export class Utterance {
  bytes = 0
  /** The STT failed (or threw) while this utterance was open. */
  failed = false
  private stream?: PassThrough

  /** @param transcribe - starts the STT on the utterance's audio stream. */
  constructor(private readonly transcribe: (audio: PassThrough) => void) {}

  write(audio: Buffer): void {
    if (!this.stream) {
      this.stream = new PassThrough()
      this.transcribe(this.stream)
    }
    this.bytes += audio.length
    this.stream.write(audio)
  }

  end(): void {
    this.stream?.end()
  }
}
