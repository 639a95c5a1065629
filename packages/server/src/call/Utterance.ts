import type { Readable } from 'node:stream'
import type { STT } from '@openmic/core'
import { createPushStream } from '../streams/push-stream.js'

/**
 * The audio of one utterance, from `StartSpeaking` to `StopSpeaking`. The STT is started with the
 * first audio chunk, so an utterance without audio costs no transcription.
 */
export class Utterance {
  bytes = 0
  /** The STT failed (or threw) while this utterance was open. */
  failed = false
  private stream?: Readable

  /** @param output - its log is told when the STT's `transcribe()` throws (the utterance is then `failed`). */
  constructor(
    private readonly stt: STT,
    private readonly output: { log(...message: unknown[]): void }
  ) {}

  write(audio: Buffer): void {
    if (!this.stream) {
      this.stream = createPushStream()
      try {
        this.stt.transcribe(this.stream)
      } catch (error) {
        this.output.log('STT transcribe() threw:', error)
        this.failed = true
      }
    }
    this.bytes += audio.length
    this.stream.push(audio)
  }

  end(): void {
    this.stream?.push(null)
  }
}
