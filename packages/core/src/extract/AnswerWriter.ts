import type { Writable } from 'node:stream'

/**
 * How many deltas wait unjoined at most: a burst read at once (a whole answer, in the benchmark) is
 * joined in pieces while its deltas are still in the cache.
 */
const COMPACT_AT = 32

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
  /** The text received, up to the pending deltas. */
  private head = ''
  /**
   * Deltas received after `head`, joined when read, and every {@link COMPACT_AT} deltas while they
   * are still in the cache: a chain of `+=` makes a rope of hundreds of scattered pieces that the
   * first read walks, cache-cold, at the end of the answer.
   */
  private readonly pending: string[] = []
  private receivedLength = 0
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

  constructor(
    private readonly stream: Writable,
    private readonly startTag?: string
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
    if (this.pending.push(delta) === COMPACT_AT) this.compactPending()
    this.receivedLength += delta.length
    if (this.tagStart !== -1) return
    const tag = this.startTag
    if (!tag) return this.accept(this.receivedLength)

    const text = this.text
    const found = text.indexOf(tag, this.acceptedLength)
    if (found !== -1) {
      this.tagStart = found
      return this.accept(found)
    }
    this.accept(text.length - this.heldBackLength(text, tag))
  }

  /** Writes what was accepted and not written yet (done for you on the next tick and by `end()`). */
  flush(): void {
    if (this.acceptedLength <= this.flushedLength) return
    // Without a tag, what is due is exactly the pending deltas (the usual case): no slice.
    const due =
      this.flushedLength === this.head.length && this.acceptedLength === this.receivedLength
        ? this.joinPending()
        : this.text.slice(this.flushedLength, this.acceptedLength)
    this.stream.write(due)
    this.flushedLength = this.acceptedLength
  }

  /**
   * Ends this writer (not the stream): writes the held-back tail when it turned out not to be a
   * tag, and returns the full text received.
   */
  end(): string {
    if (this.tagStart === -1) this.acceptedLength = this.receivedLength
    this.flush()
    return this.text
  }

  /** The text that was spoken, for an answer that broke off. */
  writtenText(): string {
    return this.text.slice(0, this.acceptedLength)
  }

  /** Length of the longest end of the unwritten text that is a beginning of the tag. */
  private heldBackLength(text: string, tag: string): number {
    const unaccepted = text.length - this.acceptedLength
    for (let length = Math.min(tag.length - 1, unaccepted); length > 0; length--) {
      if (text.endsWith(tag.slice(0, length))) return length
    }
    return 0
  }

  /** Everything received so far. */
  private get text(): string {
    if (this.pending.length > 0) this.joinPending()
    return this.head
  }

  /** Joins the pending deltas into one while they are still in the cache. */
  private compactPending(): void {
    const joined = this.pending.join('')
    this.pending.length = 1
    this.pending[0] = joined
  }

  /** Moves the pending deltas onto `head`, as one string; returns that string. */
  private joinPending(): string {
    const joined = this.pending.length === 1 ? this.pending[0]! : this.pending.join('')
    this.pending.length = 0
    this.head += joined
    return joined
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
