import { syncBuiltinESMExports } from 'node:module'
import { install, type FakeMethod, type Clock } from '@sinonjs/fake-timers'

/** Captured at load, before any clock is installed: the one real wait the simulator makes. */
const realSetImmediate = globalThis.setImmediate

/**
 * What the clock fakes. Not `process.nextTick` nor `queueMicrotask`: Node's streams and the server
 * rely on them to settle within one instant, as they do in a real process.
 */
const FAKED: FakeMethod[] = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'Date',
  'performance',
]

/**
 * `Date.now()` when a simulation starts. Any fixed instant replays alike; at 0, `Date.now()` and
 * `performance.now()` both read the virtual ms since the call connected.
 */
const START_EPOCH_MS = 0

/** Past this many timers in one run the call is taken as spinning (a timer that re-arms itself). */
const MAX_TIMERS_PER_RUN = 1_000_000

/** A timer still pending on the clock. */
export interface PendingTimer {
  /** When it is due, in ms since the simulation started. */
  dueAtMs: number
  /** The delay it was set with (ms). */
  delayMs: number
}

/**
 * Virtual time for one simulation: `@sinonjs/fake-timers` installed on the global object. Time
 * only moves when the simulator fires the next timer; after each timer one real macrotask lets the
 * promise jobs and ticks it caused settle, as they would between two timers of a real process.
 */
export class VirtualClock {
  private fired = 0

  private constructor(private readonly clock: Clock) {}

  /** Milliseconds since the simulation started. */
  get now(): number {
    return this.clock.now - START_EPOCH_MS
  }

  /** Timers on the clock, simulator's own included. */
  pendingTimers(): PendingTimer[] {
    const timers = this.clock.timers ? [...this.clock.timers.values()] : []
    return timers.map((timer) => ({
      dueAtMs: (timer.callAt ?? this.clock.now) - START_EPOCH_MS,
      delayMs: timer.delay ?? 0,
    }))
  }

  /** Lets the promise jobs and ticks queued so far (and those they queue) run. */
  settle(): Promise<void> {
    return new Promise((resolve) => realSetImmediate(resolve))
  }

  /**
   * Fires timers one by one until `done()` holds or the clock reaches `untilMs` (ms since the
   * start, where it then stands). Resolves true when `done()` held; false at `untilMs`, or once the
   * run has fired so many timers that the call must be spinning.
   */
  async runUntil(done: () => boolean, untilMs: number): Promise<boolean> {
    // Always one timer to fire: the clock never jumps past untilMs, and lands on it.
    const sentinel = this.clock.setTimeout(() => {}, Math.max(0, untilMs - this.now))
    try {
      for (;;) {
        await this.settle()
        if (done()) return true
        if (this.now >= untilMs || this.fired >= MAX_TIMERS_PER_RUN) return false
        this.clock.next()
        this.fired++
      }
    } finally {
      this.clock.clearTimeout(sentinel)
    }
  }

  /** True once the run fired more timers than a call can need: something re-arms forever. */
  get spinning(): boolean {
    return this.fired >= MAX_TIMERS_PER_RUN
  }

  /** Lets `ms` of virtual time pass, firing what falls due. */
  async runFor(ms: number): Promise<void> {
    const until = this.now + ms
    await this.runUntil(() => false, until)
  }

  /** @internal Installs a clock; see {@link withVirtualClock}. */
  static install(): VirtualClock {
    const clock = install({ toFake: FAKED, now: START_EPOCH_MS, shouldClearNativeTimers: true })
    // ESM imports of built-ins (`import { setTimeout } from 'node:timers/promises'`, as core's
    // MockAgent does) keep the original functions until the ESM bindings are synced with the
    // CommonJS modules fake-timers patched.
    syncBuiltinESMExports()
    return new VirtualClock(clock)
  }

  /** @internal */
  uninstall(): void {
    this.clock.uninstall()
    syncBuiltinESMExports()
  }
}

let last: Promise<unknown> = Promise.resolve()

/**
 * Runs `body` on a virtual clock installed for its duration. The clock is global, so runs are
 * queued: one at a time per process, in the order they were asked for.
 */
export function withVirtualClock<T>(body: (clock: VirtualClock) => Promise<T>): Promise<T> {
  const run = last.then(async () => {
    const clock = VirtualClock.install()
    try {
      return await body(clock)
    } finally {
      clock.uninstall()
    }
  })
  last = run.catch(() => undefined)
  return run
}
