import { EventEmitter } from 'eventemitter3'

export interface RealtimeInputEvents {
  /** The committed audio became the session's conversation item `itemId`. */
  Committed: [itemId: string]
  /** Its transcript ('' when nothing was said). Emitted once, or `Failed`. */
  Transcript: [transcript: string]
  /** It could not be committed or transcribed. Emitted once, or `Transcript`. */
  Failed: [error: unknown]
}

/**
 * One commit of the user's audio ({@link RealtimeModel.commitAudio}): the conversation item it
 * became and its transcript. The provider feeds it; the call listens.
 */
export class RealtimeInput extends EventEmitter<RealtimeInputEvents> {
  /** The session's item, once committed. */
  itemId?: string
  /** Its transcript, once known. */
  transcript?: string
  /** Why it failed, if it did. */
  error?: unknown

  /** It has its transcript, or failed. */
  get settled(): boolean {
    return this.transcript !== undefined || this.error !== undefined
  }

  /** Calls `onItem` once committed (at once if it is). */
  whenCommitted(onItem: (itemId: string) => void): void {
    if (this.itemId !== undefined) onItem(this.itemId)
    else this.once('Committed', onItem)
  }

  /** Calls `onTranscript` or `onFailed` once settled (at once if it is). */
  whenSettled(
    onTranscript: (transcript: string) => void,
    onFailed: (error: unknown) => void
  ): void {
    if (this.transcript !== undefined) return onTranscript(this.transcript)
    if (this.error !== undefined) return onFailed(this.error)
    const transcript = (text: string) => {
      this.off('Failed', failed)
      onTranscript(text)
    }
    const failed = (error: unknown) => {
      this.off('Transcript', transcript)
      onFailed(error)
    }
    this.once('Transcript', transcript)
    this.once('Failed', failed)
  }

  // ---- the provider's side ----

  /** The audio became item `itemId`. */
  committed(itemId: string): void {
    if (this.itemId !== undefined) return
    this.itemId = itemId
    this.emit('Committed', itemId)
  }

  /** Its transcript (once; ignored once settled). */
  transcribed(transcript: string): void {
    if (this.settled) return
    this.transcript = transcript
    this.emit('Transcript', transcript)
  }

  /** It failed (once; ignored once settled). */
  fail(error: unknown): void {
    if (this.settled) return
    this.error = error
    this.emit('Failed', error)
  }
}
