import { performance } from 'node:perf_hooks'

/** Something that must happen by `at` (a `performance.now()` time), or `expire()` runs. */
export interface Deadline {
  readonly at: number
  expire(): void
}

/**
 * Many deadlines on one Node timer. Adding and removing a deadline is a `Set` operation: no timer is
 * made or cleared for each one (on Node 20, `setTimeout` plus `clearTimeout` measured about 10 µs on
 * a model call's path to its first token: timer lists, the loop's ref count, cold code). The
 * timer is re-armed only when a deadline is added that is earlier than the one it waits for, or when
 * it fires with deadlines still to come.
 *
 * The timer is unref'd: it does not keep the process alive. What a deadline guards (a request in
 * flight) does.
 */
export class SharedDeadlines {
  private readonly waiting = new Set<Deadline>()
  private timer?: ReturnType<typeof setTimeout>
  /** When the armed timer fires (`Infinity`: not armed). */
  private timerAt = Infinity

  /** Watches `deadline` until {@link SharedDeadlines.remove} or its `expire()`. */
  add(deadline: Deadline): void {
    this.waiting.add(deadline)
    if (deadline.at < this.timerAt) this.arm(deadline.at)
  }

  /** Stops watching `deadline` (met in time). Leaves the timer as it is: it stops once idle. */
  remove(deadline: Deadline): void {
    this.waiting.delete(deadline)
  }

  /** Number of deadlines watched. */
  get size(): number {
    return this.waiting.size
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timerAt = at
    // At least 1 ms: Node's timers count whole milliseconds of loop time, and may fire a fraction
    // of one early against performance.now(); such a deadline is found not due and re-armed.
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(at - performance.now())))
    this.timer.unref()
  }

  private readonly fire = () => {
    this.timer = undefined
    this.timerAt = Infinity
    const now = performance.now()
    const due: Deadline[] = []
    let next = Infinity
    for (const deadline of this.waiting) {
      if (deadline.at <= now) due.push(deadline)
      else if (deadline.at < next) next = deadline.at
    }
    for (const deadline of due) this.waiting.delete(deadline)
    if (next !== Infinity) this.arm(next)
    // Last: an expiry may add deadlines (a retry's), or throw.
    for (const deadline of due) deadline.expire()
  }
}

/** The deadlines of answers in flight (first tokens, fallback switches), on one timer. */
export const answerDeadlines = new SharedDeadlines()
