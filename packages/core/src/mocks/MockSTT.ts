import type { Readable } from 'node:stream'
import { STT } from '../stt/STT.js'

/** What {@link MockSTT} does with one utterance. A string is one transcript emitted at the end. */
export type MockUtterance =
  | string
  | {
      /** The transcripts to emit, in order (an empty string is an empty transcript). */
      transcripts?: string | string[]
      /**
       * When to emit: `'end'` (default) once the audio stream has ended, `'audio'` as soon as the
       * first audio chunk arrives (while the user is still speaking).
       */
      emitOn?: 'end' | 'audio'
      /** Delay before each transcript (or the failure), in ms. Default 0: emitted at once. */
      delayMs?: number
      /** Emit `Failed` with this error instead of the transcripts. */
      error?: unknown
      /** Interim texts emitted as `Partial`, one per audio chunk received, while the user speaks. */
      partials?: string[]
    }

export interface MockSTTOptions {
  /**
   * One entry per utterance, in order (the last one repeats), or a function of the utterance's
   * index (from 0). Default: one transcript per utterance, `"User message <n>"`.
   */
  utterances?: MockUtterance[] | ((index: number) => MockUtterance)
  /**
   * Emit `TranscriptEnd` after each utterance's last transcript (default true). False plays an STT
   * that cannot tell when an utterance's text is complete.
   */
  transcriptEnd?: boolean
}

/**
 * A scriptable speech-to-text for tests and demos: transcripts per utterance, delays, failures.
 * It reads all the audio it is given and counts it (`audioBytes`), but recognizes nothing.
 *
 * @example
 * const stt = new MockSTT({ utterances: ['Hello', { transcripts: '', delayMs: 50 }] })
 */
export class MockSTT extends STT {
  /** Number of `transcribe()` calls so far. */
  public calls = 0
  /** Audio bytes received, over all utterances. */
  public audioBytes = 0
  private readonly timers = new Set<NodeJS.Timeout>()
  private destroyed = false

  constructor(private readonly options: MockSTTOptions = {}) {
    super()
  }

  override get signalsTranscriptEnd(): boolean {
    return this.options.transcriptEnd ?? true
  }

  transcribe(audio: Readable): void {
    const script = this.script(this.calls++)
    const early = typeof script !== 'string' && script.emitOn === 'audio'
    const partials = typeof script === 'string' ? [] : [...(script.partials ?? [])]
    let triggered = false
    const trigger = () => {
      if (triggered) return
      triggered = true
      this.play(script)
    }
    audio.on('data', (chunk: Buffer) => {
      this.audioBytes += chunk.length
      const partial = partials.shift()
      if (partial !== undefined && !triggered && !this.destroyed) this.emit('Partial', partial)
      if (early) trigger()
    })
    audio.once('end', trigger)
    audio.once('error', (error) => {
      triggered = true
      this.fail(error)
    })
  }

  override destroy(): void {
    this.destroyed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    super.destroy()
  }

  private script(index: number): MockUtterance {
    const { utterances } = this.options
    if (typeof utterances === 'function') return utterances(index)
    if (utterances && utterances.length > 0)
      return utterances[Math.min(index, utterances.length - 1)]!
    return `User message ${index + 1}`
  }

  private play(script: MockUtterance) {
    const {
      transcripts = '',
      delayMs = 0,
      error,
    } = typeof script === 'string' ? { transcripts: script } : script
    const texts = typeof transcripts === 'string' ? [transcripts] : transcripts
    if (delayMs <= 0 && error === undefined) {
      texts.forEach((text, index) => this.say(text, index === texts.length - 1))
      return
    }
    const steps: Array<() => void> =
      error !== undefined
        ? [() => this.fail(error)]
        : texts.map((text, index) => () => this.say(text, index === texts.length - 1))
    this.runSteps(steps, delayMs)
  }

  private say(text: string, last: boolean) {
    if (this.destroyed) return
    if (this.logger) this.log(`Transcript: "${text}"`)
    this.emit('Transcript', text)
    if (last && this.signalsTranscriptEnd) this.emit('TranscriptEnd')
  }

  private runSteps(steps: Array<() => void>, delayMs: number): void {
    const step = steps.shift()
    if (!step || this.destroyed) return
    if (delayMs <= 0) {
      step()
      return this.runSteps(steps, delayMs)
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      if (this.destroyed) return
      step()
      this.runSteps(steps, delayMs)
    }, delayMs)
    this.timers.add(timer)
  }

  private fail(error: unknown) {
    this.log('Failed:', error)
    this.emit('Failed', error)
  }
}
