import { EventEmitter } from 'eventemitter3'
import type { RealtimeOutput, RealtimeResponseEnd } from './types.js'

export interface RealtimeResponseEvents {
  /** A piece of output (see {@link RealtimeOutput}), in order. */
  Output: [output: RealtimeOutput]
  /** The response ended; emitted once, after its last `Output`. */
  Done: [end: RealtimeResponseEnd]
}

/** What cancels a response: the model that made it. */
export interface RealtimeResponseOwner {
  cancelResponse(response: RealtimeResponse): void
}

/**
 * One response of a realtime model, from its request to its end. The provider feeds it
 * ({@link RealtimeResponse.output}, {@link RealtimeResponse.finish}); readers follow it with
 * {@link RealtimeResponse.follow}, which replays what already came: a response may be asked for
 * before anyone reads it (openmic asks as soon as the user's audio is committed) and its output is
 * kept until the call takes it.
 *
 * Once `cancel()` was called no more output is taken (whatever the provider still sends); `Done`
 * follows, with `cancelled` once the provider confirmed.
 */
export class RealtimeResponse extends EventEmitter<RealtimeResponseEvents> {
  /** Everything output so far, in order. */
  readonly outputs: RealtimeOutput[] = []
  /** How it ended, once it did. */
  end?: RealtimeResponseEnd
  /** `cancel()` was called. */
  cancelled = false

  /**
   * @param owner - The model that made it, which `cancel()` asks.
   * @param inConversation - Its items join the session's conversation (false for `say()`, whose
   *   output is kept out of it).
   */
  constructor(
    private readonly owner: RealtimeResponseOwner,
    readonly inConversation = true
  ) {
    super()
  }

  /** It ended (completed, incomplete, cancelled or failed). */
  get done(): boolean {
    return this.end !== undefined
  }

  /** The ids of its output items, in order. */
  get itemIds(): string[] {
    return this.outputs.flatMap((output) => (output.type === 'item' ? [output.itemId] : []))
  }

  /** The ids of its spoken message items, in order. */
  get messageIds(): string[] {
    return this.outputs.flatMap((output) =>
      output.type === 'item' && output.kind === 'message' ? [output.itemId] : []
    )
  }

  /** Stops it: no more output is taken; `Done` follows. Does nothing once it ended. */
  cancel(): void {
    if (this.done || this.cancelled) return
    this.cancelled = true
    this.owner.cancelResponse(this)
  }

  /**
   * Calls `onOutput` with every output so far, then with each new one as it comes, and `onDone`
   * once it ended (at once if it has). Returns what stops following.
   */
  follow(
    onOutput: (output: RealtimeOutput) => void,
    onDone?: (end: RealtimeResponseEnd) => void
  ): () => void {
    let following = true
    for (const output of [...this.outputs]) {
      if (!following) break
      onOutput(output)
    }
    const listener = (output: RealtimeOutput) => {
      if (following) onOutput(output)
    }
    const done = (end: RealtimeResponseEnd) => {
      if (following) onDone?.(end)
    }
    if (this.end) {
      done(this.end)
      return () => {}
    }
    this.on('Output', listener)
    this.once('Done', done)
    return () => {
      following = false
      this.off('Output', listener)
      this.off('Done', done)
    }
  }

  // ---- the provider's side ----

  /** Adds a piece of output (dropped after `cancel()` or the end). */
  output(output: RealtimeOutput): void {
    if (this.done || this.cancelled) return
    this.outputs.push(output)
    this.emit('Output', output)
  }

  /** Ends it (once; later calls are ignored). */
  finish(end: RealtimeResponseEnd): void {
    if (this.done) return
    this.end = end
    this.emit('Done', end)
  }
}
