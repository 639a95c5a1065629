/**
 * Objects made ahead of need, for the path from `answer()` to the model request: an answer needs
 * its stream and two AbortControllers before the request can leave, and on Node 20 making them
 * costs tens of microseconds when the code is cold (a stream's states; an AbortSignal's
 * EventTarget, set up when `signal` is first read). They are taken ready-made, and the spares are
 * made again once the current I/O is done (`setImmediate`), off the path to the first token.
 * Spares are fresh objects that nothing else holds.
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
    const object = this.spares.pop() ?? this.make()
    if (!this.refilling) {
      this.refilling = true
      setImmediate(this.refill).unref()
    }
    return object
  }

  private readonly refill = () => {
    this.refilling = false
    while (this.spares.length < this.count) this.spares.push(this.make())
  }
}

/** AbortControllers with their signal made; an answer takes two (its own, its first call's). */
export const abortControllers = new MadeAhead(() => {
  const controller = new AbortController()
  void controller.signal // made on first access: the costly part
  return controller
}, 2)
