import type { Writable } from 'node:stream'

/**
 * Streams answer text as it arrives while keeping the extraction tag and everything after it out
 * of the stream (and so out of the speech). Text that could be the beginning of the start tag is
 * held back until the next delta tells whether it is one: with `startTag = '<score>'`, the deltas
 * `"Sure. <sc"`, `"ore>42</score>"` write only `"Sure. "`.
 *
 * The first text is written at once; later deltas that arrive together (one network read holds
 * many) are written as one chunk on the next tick: one stream write instead of one per delta.
 *
 * Every provider streams through one writer per model call; `end()` gives the full text for
 * `Agent.extract()`.
 */
export class AnswerWriter {
  /** Everything received so far, the tag included. */
  private text = ''
  /** End of the text known to be spoken (written, or about to be). */
  private acceptedLength = 0
  /** End of the text actually written to the stream. */
  private flushedLength = 0
  private flushScheduled = false
  private tagStart = -1
  private readonly scheduledFlush = () => {
    this.flushScheduled = false
    this.flush()
  }

  /**
   * @param lead - Written before this writer's first text unless that text starts with a space:
   *   what separates it from the text of the model call before it (`'look.'` then `'Found'` are
   *   spoken `'look. Found'`).
   */
  constructor(
    private readonly stream: Writable,
    private readonly startTag?: string,
    private readonly lead = ''
  ) {}

  /** Number of characters of the answer that are spoken (written or about to be). */
  get written(): number {
    return this.acceptedLength
  }

  /** Everything received so far, the tag included. */
  get received(): string {
    return this.text
  }

  /** Adds a delta; whatever part of the answer is now known not to be the tag will be written. */
  write(delta: string): void {
    if (delta === '') return
    this.text += delta
    if (this.tagStart !== -1) return
    const tag = this.startTag
    if (!tag) return this.accept(this.text.length)

    const found = this.text.indexOf(tag, this.acceptedLength)
    if (found !== -1) {
      this.tagStart = found
      return this.accept(found)
    }
    this.accept(this.text.length - this.heldBackLength(tag))
  }

  /** Writes what was accepted and not written yet (done for you on the next tick and by `end()`). */
  flush(): void {
    if (this.acceptedLength <= this.flushedLength) return
    const text = this.text.slice(this.flushedLength, this.acceptedLength)
    const lead = this.flushedLength === 0 && !/^\s/.test(text) ? this.lead : ''
    this.stream.write(lead + text)
    this.flushedLength = this.acceptedLength
  }

  /**
   * Ends this writer (not the stream): writes the held-back tail when it turned out not to be a
   * tag, and returns the full text received.
   */
  end(): string {
    if (this.tagStart === -1) this.acceptedLength = this.text.length
    this.flush()
    return this.text
  }

  /** The text that was spoken, for an answer that broke off. */
  writtenText(): string {
    return this.text.slice(0, this.acceptedLength)
  }

  /** Length of the longest end of the unwritten text that is a beginning of the tag. */
  private heldBackLength(tag: string): number {
    const unaccepted = this.text.length - this.acceptedLength
    for (let length = Math.min(tag.length - 1, unaccepted); length > 0; length--) {
      if (this.text.endsWith(tag.slice(0, length))) return length
    }
    return 0
  }

  private accept(end: number): void {
    if (end <= this.acceptedLength) return
    this.acceptedLength = end
    if (this.flushedLength === 0) return this.flush()
    if (!this.flushScheduled) {
      this.flushScheduled = true
      process.nextTick(this.scheduledFlush)
    }
  }
}
