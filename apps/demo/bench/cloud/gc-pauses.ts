// The garbage collector's pauses of this process, to tell a turn's slow tail caused by them from
// one caused by the code on its path: the pauses within a turn's window are summed.
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'

export class GcPauses {
  private readonly pauses: PerformanceEntry[] = []
  private readonly observer = new PerformanceObserver((list) => {
    this.pauses.push(...list.getEntries())
  })

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] })
  }

  /** Milliseconds of pauses between `from` and `to` (performance.now() clock). */
  within(from: number, to: number): number {
    let total = 0
    for (const pause of this.pauses) {
      const start = Math.max(from, pause.startTime)
      const end = Math.min(to, pause.startTime + pause.duration)
      if (end > start) total += end - start
    }
    return total
  }

  /** Count, total and longest pause so far. */
  summary(): { count: number; totalMs: number; maxMs: number } {
    const durations = this.pauses.map((pause) => pause.duration)
    return {
      count: durations.length,
      totalMs: durations.reduce((sum, ms) => sum + ms, 0),
      maxMs: Math.max(0, ...durations),
    }
  }

  stop(): void {
    this.observer.disconnect()
  }
}
