import { MockTTS, STT, TTS, type MockTTSOptions } from '@openmic/core'
import type { Readable } from 'node:stream'

/** A MockTTS whose audio samples all hold the number of the `speak()` call that produced them. */
export class TaggedTTS extends MockTTS {
  constructor(options: MockTTSOptions = {}) {
    super(options)
    this.on('Audio', () => {}) // keep eventemitter3 happy when nothing listens yet
  }

  override emit(event: any, ...args: any[]): boolean {
    if (event === 'Audio') {
      const tagged = Buffer.alloc((args[0] as Buffer).length)
      for (let i = 0; i + 1 < tagged.length; i += 2) tagged.writeInt16LE(this.calls, i)
      return super.emit('Audio', tagged)
    }
    return super.emit(event, ...args)
  }
}

/** The `speak()` number an audio frame of {@link TaggedTTS} came from. */
export function tagOf(audio: Buffer): number {
  return audio.readInt16LE(0)
}

/** A TTS that throws from `speak()`: the server must survive it. */
export class ThrowingTTS extends TTS {
  speak(_text: Readable): void {
    throw new Error('TTS exploded')
  }
  cancel(): void {}
}

/** An STT that throws from `transcribe()`. */
export class ThrowingSTT extends STT {
  transcribe(_audio: Readable): void {
    throw new Error('STT exploded')
  }
}

/**
 * An STT that delivers each utterance's transcript in pieces once its audio ended: the first
 * piece `firstMs` after `StopSpeaking`, the next ones `gapMs` apart, then `TranscriptEnd` right
 * after the last one when it signals it.
 */
export class PiecesSTT extends STT {
  readonly signalsTranscriptEnd: boolean
  private calls = 0
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(
    private readonly options: {
      utterances: string[][]
      signals: boolean
      gapMs: number
      firstMs?: number
    }
  ) {
    super()
    this.signalsTranscriptEnd = options.signals
  }

  transcribe(audio: Readable): void {
    const { utterances, gapMs, firstMs = 20 } = this.options
    const pieces = utterances[Math.min(this.calls++, utterances.length - 1)]!
    audio.resume()
    audio.once('end', () => {
      pieces.forEach((piece, index) => {
        this.later(firstMs + index * gapMs, () => {
          this.emit('Transcript', piece)
          if (index === pieces.length - 1 && this.signalsTranscriptEnd) {
            ;(this.emit as (event: string) => boolean)('TranscriptEnd')
          }
        })
      })
    })
  }

  override destroy(): void {
    for (const timer of this.timers) clearTimeout(timer)
    super.destroy()
  }

  private later(ms: number, action: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      action()
    }, ms)
    this.timers.add(timer)
  }
}
