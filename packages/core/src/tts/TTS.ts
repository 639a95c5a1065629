import { EventEmitter } from 'eventemitter3'
import type { Readable } from 'node:stream'
import type { Logger } from '../logger/Logger.js'

export interface TTSEvents {
  /** Speech: PCM, signed 16-bit little-endian, mono, 16 kHz. */
  Audio: [audio: Buffer]
  /** All audio of the text given to the last `speak()` has been emitted (not sent after `cancel()`). */
  AudioEnd: []
  /** Synthesis failed. */
  Failed: [error: unknown]
}

/**
 * Text-to-speech. The server calls `speak()` with the answer's text stream and forwards each `Audio`
 * chunk to the client; `cancel()` stops at once (barge-in).
 */
export abstract class TTS extends EventEmitter<TTSEvents> {
  public logger?: Logger

  /** Starts speaking a stream of UTF-8 text; emit `Audio` chunks, then `AudioEnd`. */
  abstract speak(text: Readable): void

  /** Stops speaking at once: no `Audio` of the cancelled text may be emitted afterwards. */
  abstract cancel(): void

  protected log(...message: any[]) {
    this.logger?.log(...message)
  }

  /** Cancels and removes all listeners. */
  destroy() {
    this.log('Destroyed')
    this.cancel()
    this.removeAllListeners()
  }
}
