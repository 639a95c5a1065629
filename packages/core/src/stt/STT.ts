import { EventEmitter } from 'eventemitter3'
import type { Readable } from 'node:stream'
import type { Logger } from '../logger/Logger.js'

export interface STTEvents {
  /** Text recognized in the current utterance. Several may come for one utterance. */
  Transcript: [transcript: string]
  /** Transcription failed; the utterance produced no (further) transcript. */
  Failed: [error: unknown]
}

/**
 * Speech-to-text. The server calls `transcribe()` once per utterance with a stream of PCM16 16 kHz
 * mono audio that ends when the user stops speaking.
 */
export abstract class STT extends EventEmitter<STTEvents> {
  public logger?: Logger

  /** Starts transcribing one utterance; emit `Transcript` as text is recognized. */
  abstract transcribe(audio: Readable): void

  protected log(...message: any[]) {
    this.logger?.log(...message)
  }

  /** Stops everything and removes all listeners. */
  destroy() {
    this.log('Destroyed')
    this.removeAllListeners()
  }
}
