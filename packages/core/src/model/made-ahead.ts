import { LeadingAbortController } from './abort-link.js'

/**
 * Objects made ahead of need, for the path from `answer()` to the model request: an answer needs
 * its stream and two AbortControllers before the request can leave, and on Node 20 making them
 * costs tens of microseconds when the code is cold (a stream's states; an AbortSignal's
 * EventTarget). They are taken ready-made. Spares are made again by {@link MadeAhead.refillSoon},
 * which the agent calls when an answer ends: not when one starts, where the work would compete
 * with the request being sent and its first response. Spares are fresh objects nothing else holds.
 */
export class MadeAhead<T> {
  private readonly spares: T[] = []
  private refilling = false

  constructor(
    private readonly make: () => T,
    private readonly count: number
  ) {}

  /** A fresh object: a spare if one is ready, else made now. */
  take(): T {
    return this.spares.pop() ?? this.make()
  }

  /** Makes the missing spares once the current I/O is done (`setImmediate`). */
  refillSoon(): void {
    if (this.refilling) return
    this.refilling = true
    setImmediate(this.refill).unref()
  }

  private readonly refill = () => {
    this.refilling = false
    while (this.spares.length < this.count) this.spares.push(this.make())
  }
}

/** AbortControllers with their signal made; an answer takes two (its own, its first call's). */
export const abortControllers = new MadeAhead(() => new LeadingAbortController(), 2)
