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
