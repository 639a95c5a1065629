import type { Readable } from 'node:stream'
import { STT } from '@openmic/core'
import { tagOf } from './audio-tags.js'
import type { CallLog } from './call-log.js'
import type { ScriptedTranscript, UtteranceStep } from './script.js'

/**
 * The STT of a simulated call. Each `transcribe()` stream is one utterance; its audio says which
 * (see `audio-tags.ts`), so the script's transcript for that utterance plays however the
 * utterances and the server's streams line up. Pieces come after the end of the stream, at the
 * scripted delays, on virtual time.
 */
export class SimulatedSTT extends STT {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private destroyed = false

  constructor(
    private readonly utterances: UtteranceStep[],
    private readonly transcriptEnd: boolean,
    private readonly callLog: CallLog
  ) {
    super()
  }

  override get signalsTranscriptEnd(): boolean {
    return this.transcriptEnd
  }

  transcribe(audio: Readable): void {
    // Several utterances in one stream (a client whose end of speech waits longer than the
    // user's pause): the first one's script, with all their words
    const tags: number[] = []
    audio.on('data', (chunk: Buffer) => {
      const tag = tagOf(chunk)
      if (tag !== tags.at(-1)) tags.push(tag)
    })
    audio.once('end', () => this.play(tags[0] ?? 0, tags))
  }

  override destroy(): void {
    this.destroyed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    super.destroy()
  }

  private play(utterance: number, tags: number[] = [utterance]) {
    const behaviour = this.behaviourOf(utterance)
    if (behaviour.silent) return
    const words = tags.map((tag) => this.wordsOf(tag)).filter((text) => text !== '')
    const pieces = [...(behaviour.pieces ?? [{ text: words.join(' ') }])].sort(
      (a, b) => (a.afterMs ?? 0) - (b.afterMs ?? 0)
    )
    // One transcription ends once: in TranscriptEnd, or in Failed (the STT contract)
    let ended = false
    pieces.forEach((piece, index) => {
      const isLast = index === pieces.length - 1
      this.at(piece.afterMs ?? 0, behaviour.failAfterMs, () => {
        this.callLog.add({ type: 'stt', utterance, what: 'transcript', text: piece.text })
        this.emit('Transcript', piece.text)
        if (isLast && this.transcriptEnd) {
          ended = true
          this.callLog.add({ type: 'stt', utterance, what: 'end' })
          this.emit('TranscriptEnd')
        }
      })
    })
    if (behaviour.failAfterMs !== undefined) {
      this.at(behaviour.failAfterMs, undefined, () => {
        if (ended) return
        this.callLog.add({ type: 'stt', utterance, what: 'failed' })
        this.emit('Failed', new Error(`Scripted STT failure (utterance ${utterance})`))
      })
    }
  }

  /** Runs `action` `afterMs` after now, unless a failure due first came. */
  private at(afterMs: number, failAfterMs: number | undefined, action: () => void) {
    if (failAfterMs !== undefined && afterMs > failAfterMs) return
    if (afterMs <= 0) return action()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      if (!this.destroyed) action()
    }, afterMs)
    this.timers.add(timer)
  }

  private behaviourOf(utterance: number): ScriptedTranscript {
    const step = this.utterances[utterance - 1]
    if (!step) return { pieces: [{ text: '' }] }
    if (step.stt) return step.stt
    return 'cough' in step ? { pieces: [{ text: '' }] } : {}
  }

  private wordsOf(utterance: number): string {
    const step = this.utterances[utterance - 1]
    return step && 'say' in step ? step.say : ''
  }
}
