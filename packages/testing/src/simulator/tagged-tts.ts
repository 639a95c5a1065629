import type { Readable } from 'node:stream'
import { MockTTS } from '@openmic/core'
import { BYTES_PER_MS, tagged } from './audio-tags.js'
import type { CallLog } from './call-log.js'
import { MS_PER_CHAR, type FullScript } from './script.js'

/** What one `speak()` call was given and produced. */
export interface SpokenAnswer {
  /** The call's number, from 1: the tag of its audio. */
  speak: number
  /** The text it was given. */
  text: string
  /** Audio it produced (ms). */
  audioMs: number
  /** It produced all the audio of its text (`AudioEnd`). */
  complete: boolean
  failed: boolean
  startedAt: number
}

/**
 * Core's MockTTS (10 ms of tone per character, `Words` timings) whose audio samples all hold the
 * number of the `speak()` call that produced them, so that every frame the client gets is
 * attributed to its answer. Records each call's text and audio, and fails the calls the script
 * says to, midway.
 */
export class TaggedTTS extends MockTTS {
  readonly spoken: SpokenAnswer[] = []
  private chunksOfCurrent = 0

  constructor(
    private readonly script: FullScript['tts'],
    private readonly callLog: CallLog
  ) {
    super({
      msPerChar: MS_PER_CHAR,
      chunkMs: script.chunkMs,
      chunkDelayMs: script.chunkDelayMs,
      firstAudioDelayMs: script.firstAudioDelayMs,
    })
  }

  /** The `speak()` in progress: begun, and neither complete, failed nor cancelled. */
  current?: SpokenAnswer

  override speak(text: Readable): void {
    const spoken: SpokenAnswer = {
      speak: this.calls + 1, // this call's number, counted by speak() below
      text: '',
      audioMs: 0,
      complete: false,
      failed: false,
      startedAt: Date.now(),
    }
    // Before the TTS's own listener: a chunk it fails on is still one the answer gave it
    text.on('data', (chunk: Buffer | string) => (spoken.text += chunk.toString()))
    super.speak(text)
    this.spoken.push(spoken)
    this.current = spoken
    this.chunksOfCurrent = 0
    this.callLog.add({ type: 'speak', speak: spoken.speak })
  }

  override cancel(): void {
    const spoken = this.current
    this.current = undefined
    if (spoken) this.callLog.add({ type: 'speak-end', speak: spoken.speak, outcome: 'cancelled' })
    super.cancel()
  }

  override emit(event: any, ...args: any[]): boolean {
    const spoken = this.current
    if (event === 'Audio' && spoken) {
      const failure = this.script.failures.find((f) => f.speak === spoken.speak)
      if (failure && this.chunksOfCurrent >= failure.afterChunks) {
        this.current = undefined
        super.cancel()
        this.callLog.add({ type: 'speak-end', speak: spoken.speak, outcome: 'failed' })
        spoken.failed = true
        return super.emit('Failed', new Error(`Scripted TTS failure (speak ${spoken.speak})`))
      }
      this.chunksOfCurrent++
      const audio = args[0] as Buffer
      spoken.audioMs += audio.length / BYTES_PER_MS
      return super.emit('Audio', tagged(audio.length, spoken.speak))
    }
    if ((event === 'AudioEnd' || event === 'Failed') && spoken) {
      this.current = undefined
      spoken.complete = event === 'AudioEnd'
      spoken.failed = event === 'Failed'
      this.callLog.add({
        type: 'speak-end',
        speak: spoken.speak,
        outcome: spoken.complete ? 'complete' : 'failed',
      })
    }
    return super.emit(event, ...args)
  }
}
