import type { EventEmitter } from 'eventemitter3'

/** Core's Agent, STT and TTS are eventemitter3 emitters: a listener can be given a context. */
type ContextEmitter = EventEmitter<any>

interface Listening<Owner> {
  readonly emitter: ContextEmitter
  readonly event: string
  readonly handler: (this: Owner, arg: unknown) => void
  readonly list: GuardedListeners<Owner>
}

function callGuarded<Owner>(this: Listening<Owner>, arg: unknown): void {
  try {
    this.handler.call(this.list.owner, arg)
  } catch (error) {
    this.list.onError(this.event, error)
  }
}

/**
 * The listeners a call puts on its agent, STT and TTS. A handler that throws is reported to
 * `onError`, never thrown back into the emitter (a provider's socket handler, a stream).
 * Handlers are the owner's methods, called with the owner as `this`: a listener costs one small
 * record and no closure, as every open call holds a dozen of them.
 */
export class GuardedListeners<Owner> {
  private readonly listening: Listening<Owner>[] = []

  constructor(
    readonly owner: Owner,
    readonly onError: (event: string, error: unknown) => void
  ) {}

  on<Arg>(emitter: ContextEmitter, event: string, handler: (this: Owner, arg: Arg) => void): void {
    const listening: Listening<Owner> = {
      emitter,
      event,
      handler: handler as Listening<Owner>['handler'],
      list: this,
    }
    emitter.on(event, callGuarded, listening)
    this.listening.push(listening)
  }

  removeAll(): void {
    for (const listening of this.listening) {
      listening.emitter.off(listening.event, callGuarded, listening)
    }
    this.listening.length = 0
  }
}
