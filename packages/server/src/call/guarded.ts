/** What a guarded listener reports to when its handler throws. */
export interface ListenerOwner {
  reportListenerError(event: string, error: unknown): void
}

/** A listener to put on `source`'s `event`, with the owner as eventemitter3's context. */
export interface GuardedListener<Source extends string> {
  source: Source
  event: string
  listener: (...args: any[]) => void
}

/**
 * A listener for `source`'s `event` that calls `handler` with the listener's `this` (the owner,
 * given as eventemitter3's context) and reports what it throws instead of throwing it back into
 * the emitter (a provider's socket handler, a stream). Made once per handler and shared by every
 * call, so that a call's dozen listeners cost no closure each.
 */
export function guardedListener<Source extends string, Owner extends ListenerOwner, Arg>(
  source: Source,
  event: string,
  handler: (this: Owner, arg: Arg) => void
): GuardedListener<Source> {
  function listener(this: Owner, arg: Arg) {
    try {
      handler.call(this, arg)
    } catch (error) {
      this.reportListenerError(event, error)
    }
  }
  return { source, event, listener }
}
