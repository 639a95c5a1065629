import type { Writable } from 'node:stream'

/**
 * Streams answer text as it arrives while keeping the extraction tag and everything after it out
 * of the stream (and so out of the speech). Text that could be the beginning of the start tag is
 * held back until the next delta tells whether it is one: with `startTag = '<score>'`, the deltas
 * `"Sure. <sc"`, `"ore>42</score>"` write only `"Sure. "`.
 *
 * Every provider streams through one writer per model call; `end()` gives the full text for
 * `Agent.extract()`.
 */
export class AnswerWriter {
  private text = ''
  private writtenLength = 0
  private tagStart = -1

  constructor(
    private readonly stream: Writable,
    private readonly startTag?: string
  ) {}

  /** Number of characters written to the stream so far. */
  get written(): number {
    return this.writtenLength
  }

  /** Everything received so far, the tag included. */
  get received(): string {
    return this.text
  }

  /** Adds a delta and writes whatever part of the answer is now known not to be the tag. */
  write(delta: string): void {
    if (delta === '') return
    this.text += delta
    if (this.tagStart !== -1) return
    const tag = this.startTag
    if (!tag) return this.flushTo(this.text.length)

    const found = this.text.indexOf(tag, this.writtenLength)
    if (found !== -1) {
      this.tagStart = found
      return this.flushTo(found)
    }
    this.flushTo(this.text.length - this.heldBackLength(tag))
  }

  /**
   * Ends this writer (not the stream): writes the held-back tail when it turned out not to be a
   * tag, and returns the full text received.
   */
  end(): string {
    if (this.tagStart === -1) this.flushTo(this.text.length)
    return this.text
  }

  /** The text actually written to the stream, for an answer that broke off. */
  writtenText(): string {
    return this.text.slice(0, this.writtenLength)
  }

  /** Length of the longest end of the unwritten text that is a beginning of the tag. */
  private heldBackLength(tag: string): number {
    const pending = this.text.length - this.writtenLength
    for (let length = Math.min(tag.length - 1, pending); length > 0; length--) {
      if (this.text.endsWith(tag.slice(0, length))) return length
    }
    return 0
  }

  private flushTo(end: number): void {
    if (end <= this.writtenLength) return
    this.stream.write(this.text.slice(this.writtenLength, end))
    this.writtenLength = end
  }
}
