import { EventEmitter } from 'eventemitter3'
import type { Readable } from 'node:stream'
import type { Logger } from '../logger/Logger.js'
import { defaultProviderName } from '../telemetry/provider-name.js'
import type { FallbackSwitch } from '../telemetry/reports.js'
import { eventsGoToCall } from '../events/call-sink.js'

/** When a word is heard, relative to the start of the audio of the `speak()` that says it. */
export interface TTSWord {
  /** The word as the provider aligned it. */
  word: string
  /** Start, in ms from the first audio of this `speak()`. */
  startMs: number
  /** End, in ms from the first audio of this `speak()`. */
  endMs: number
}

export interface TTSEvents {
  /** Speech: PCM, signed 16-bit little-endian, mono, 16 kHz. */
  Audio: [audio: Buffer]
  /**
   * Timings of words of the current `speak()`, as the provider gives them (in order, possibly in
   * several batches). Optional: a TTS without alignment never emits it.
   */
  Words: [words: TTSWord[]]
  /** All audio of the text given to the last `speak()` has been emitted (not sent after `cancel()`). */
  AudioEnd: []
  /** Synthesis failed. */
  Failed: [error: unknown]
  /** openmic: a `FallbackTTS` switched to its next TTS. */
  Fallback: [fallback: FallbackSwitch]
}

/**
 * Text-to-speech. The server calls `speak()` with the answer's text stream and forwards each `Audio`
 * chunk to the client; `cancel()` stops at once (barge-in).
 *
 * The contract every TTS meets (`describeTTSConformance` in `@openmic/testing` checks it):
 * - `speak()` takes a stream of UTF-8 text that may still be arriving, and emits its speech as
 *   `Audio` (PCM16 16 kHz mono, in order, an even number of bytes per chunk), then one `AudioEnd`
 *   once the text has ended and all of its audio was emitted. A new `speak()` replaces the last.
 * - `Words` timings, when the provider has them, count from the start of that `speak()`'s audio.
 * - After `cancel()`, no `Audio` (and no `AudioEnd`) of the cancelled text is emitted, whatever
 *   the provider still sends; the next `speak()` works as usual.
 * - Any provider error, including one reported inside an open connection, becomes `Failed`; no
 *   error is ever thrown out of an event handler or left unhandled.
 * - `destroy()` releases every socket and timer; nothing is emitted afterwards.
 */
export abstract class TTS extends EventEmitter<TTSEvents> {
  public logger?: Logger

  /**
   * Who provides the speech, for tracing (`openmic.tts.provider`): each provider package says its
   * own (`openai`, `cartesia`...); by default the class name without `TTS`, in snake case.
   */
  get providerName(): string {
    return defaultProviderName(this, 'TTS')
  }

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

// The call the TTS belongs to hears its events first (see call-sink.ts).
eventsGoToCall(TTS)
