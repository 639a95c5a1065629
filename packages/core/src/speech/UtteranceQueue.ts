import type { Readable } from 'node:stream'
import { followStream } from './follow-stream.js'

/**
 * What {@link UtteranceQueue} needs of an STT's utterance record: its audio not sent yet, and
 * whether any was sent and whether its stream ended. The STT adds its own fields (the socket its
 * audio went to, its text so far...).
 */
export interface QueuedUtterance {
  /** Chunks not sent yet; the STT takes them out as it sends them, so each is sent once. */
  readonly queue: Buffer[]
  /** Some of its audio went to the provider. */
  sentAudio: boolean
  /** Its audio stream ended (or failed: a broken input ends the utterance with what was heard). */
  ended: boolean
  /** Its pending timer (e.g. no transcript in time), cleared when it is finished. */
  timer?: ReturnType<typeof setTimeout>
}

/** How {@link UtteranceQueue.follow} queues an utterance's audio. */
export interface UtteranceAudio {
  /** Turns a chunk into what is queued (e.g. resampled); copies it as it is when absent. */
  prepare?(chunk: Buffer): Buffer
  /** What is left to queue when the stream ends (e.g. a resampler's tail). */
  tail?(): Buffer | undefined
  /** Called after audio was queued or the stream ended: the STT sends what it can. */
  changed(): void
  /**
   * The stream failed: true when the STT failed the utterance itself, false (or absent) to end it
   * with what was heard.
   */
  failed?(error: unknown): boolean
}

/**
 * The utterances of a WebSocket STT that are not finished, in the order of their `transcribe()`:
 * it follows each one's audio stream into its queue, finishes an utterance once (it stops
 * listening to its stream, clears its timer, drops its unsent audio, then lets the STT emit its
 * outcome), and releases them all when the STT is destroyed, after which nothing is emitted.
 * Sending, and matching the provider's answers to utterances, stay with the STT.
 *
 * @example
 * transcribe(audio: Readable): void {
 *   const utterance = { queue: [], sentAudio: false, ended: false, text: '' }
 *   this.utterances.follow(utterance, audio, { changed: () => this.pump() })
 * }
 * private pump(): void {
 *   // Nothing was said: an empty transcript, without a request.
 *   for (const u of this.utterances.silent()) this.utterances.finish(u, () => this.emitFinalTranscript(''))
 *   // ... send what the others hold, in order
 * }
 */
export class UtteranceQueue<U extends QueuedUtterance> {
  private readonly list: U[] = []
  /** How to stop listening to each utterance's audio stream. */
  private readonly detachers = new Map<U, () => void>()
  private closed = false

  /** The utterances not finished, oldest first. */
  get items(): readonly U[] {
    return this.list
  }

  /** The oldest utterance not finished. */
  get head(): U | undefined {
    return this.list[0]
  }

  /**
   * Adds an utterance and follows its audio stream: each non-empty chunk is queued (as
   * `audio.prepare` makes it), and the stream's end or error marks the utterance ended (with
   * `audio.tail` queued first) and stops listening to it, unless `audio.failed` took the error.
   * `audio.changed` is called after each.
   */
  follow(utterance: U, stream: Readable, audio: UtteranceAudio): void {
    const end = () => {
      this.detach(utterance)
      const tail = audio.tail?.()
      if (tail && tail.length > 0) utterance.queue.push(tail)
      utterance.ended = true
      audio.changed()
    }
    this.add(
      utterance,
      followStream<Buffer>(stream, {
        data: (chunk) => {
          if (chunk.length === 0) return
          const data = audio.prepare ? audio.prepare(chunk) : Buffer.from(chunk)
          if (data.length > 0) utterance.queue.push(data)
          audio.changed()
        },
        end,
        error: (error) => {
          if (!audio.failed?.(error)) end()
        },
      })
    )
  }

  /** Adds an utterance whose audio stream the STT follows itself; `detach` stops that. */
  add(utterance: U, detach: () => void): void {
    if (this.closed) return detach()
    this.list.push(utterance)
    this.detachers.set(utterance, detach)
  }

  /** Stops listening to an utterance's audio stream (the utterance stays). */
  detach(utterance: U): void {
    this.detachers.get(utterance)?.()
  }

  /**
   * The utterances in which nothing was said (their stream ended with no audio sent or waiting):
   * each gets an empty transcript, without a request to the provider.
   */
  silent(): U[] {
    return this.list.filter(isSilent)
  }

  /**
   * Removes an utterance and releases it, then calls `emit` (its outcome) unless the queue was
   * closed. False, and nothing done, when it was already finished.
   */
  finish(utterance: U, emit?: () => void): boolean {
    const index = this.list.indexOf(utterance)
    if (index < 0) return false
    this.list.splice(index, 1)
    this.release(utterance)
    if (!this.closed) emit?.()
    return true
  }

  /** Releases every utterance, with no outcome: the STT is destroyed. */
  close(): void {
    this.closed = true
    for (const utterance of this.list.splice(0)) this.release(utterance)
  }

  private release(utterance: U): void {
    clearTimeout(utterance.timer)
    this.detach(utterance)
    this.detachers.delete(utterance)
    utterance.queue.length = 0
  }
}

/** Nothing was said in `utterance`: its stream ended with no audio sent or waiting. */
export function isSilent(utterance: QueuedUtterance): boolean {
  return utterance.ended && !utterance.sentAudio && utterance.queue.length === 0
}
