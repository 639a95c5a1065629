import { EventEmitter } from 'eventemitter3'

/**
 * Where a call's agent, STT or TTS sends its events first: the call it belongs to, set by
 * `@openmic/server` in place of a listener per event (a dozen listener records that every idle call
 * would hold). A registered symbol, so that core and the server share it without exporting it:
 * nothing here is for users or provider authors.
 */
export const CALL_SINK: unique symbol = Symbol.for('openmic.callSink') as never

/** A call that hears a part's events (see {@link CALL_SINK}). */
export interface CallSink {
  /** `part` emitted `event` (its first argument: every event of a part has one at most). */
  partEvent(part: object, event: string | symbol, arg: unknown): void
}

type Part = EventEmitter & { [CALL_SINK]?: CallSink }

/**
 * Makes every instance of `part` (core's `Agent`, `STT`, `TTS`) tell its call, if it has one, of
 * each event before its listeners; `emit` then returns true when the call or a listener heard.
 * Put on the prototype rather than declared in the class, so that it is no part of their API.
 */
export function eventsGoToCall(part: abstract new (...args: never[]) => EventEmitter): void {
  const emit = EventEmitter.prototype.emit as (this: Part, ...args: unknown[]) => boolean
  // On the prototype too, unset: the call finds it (`CALL_SINK in part`) and sets it on the part
  Object.defineProperty(part.prototype, CALL_SINK, { value: undefined, writable: true })
  Object.defineProperty(part.prototype, 'emit', {
    configurable: true,
    writable: true,
    value: function emitToCall(this: Part, event: string | symbol, ...args: unknown[]): boolean {
      const sink = this[CALL_SINK]
      if (sink !== undefined) sink.partEvent(this, event, args[0])
      return emit.call(this, event, ...args) || sink !== undefined
    },
  })
}
