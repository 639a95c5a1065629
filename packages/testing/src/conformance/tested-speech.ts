import { afterEach } from 'vitest'
import { EventLog } from './event-log.js'
import { ResourceWatch } from './resources.js'

/**
 * One STT or TTS under test: its setup, a log of the events it emits, and its destruction (after
 * which the log flags every event as emitted too late).
 */
export class TestedSpeech<Provider extends { destroy(): void }> {
  readonly log: EventLog
  destroyed = false
  constructor(
    readonly provider: Provider,
    events: readonly string[],
    private readonly teardownSetup: () => unknown
  ) {
    this.log = new EventLog(provider, events)
  }

  destroy(): void {
    this.destroyed = true
    this.log.markDestroyed()
    this.provider.destroy()
  }

  /** Waits for a `Failed` logged after `mark`, up to `timeoutMs` (a failure message names `what`). */
  untilFailed(mark: number, timeoutMs: number, what = 'Failed'): Promise<void> {
    return this.log.until(() => this.log.since(mark, 'Failed').length > 0, timeoutMs, what)
  }

  /** Destroys it (unless the test did) and tears its provider down. */
  async release(): Promise<void> {
    if (!this.destroyed) this.destroy()
    await this.teardownSetup()
  }
}

/**
 * The per-test lifecycle of a speech suite: after each test, the resource watch stops and the
 * instance under test is destroyed and its fake provider torn down. Call inside a `describe`.
 */
export function speechTestLifecycle(): {
  /** Registers the instance of the running test, released after it. */
  track<T extends { release(): Promise<void> }>(tested: T): T
  /** Starts watching the resources created from now on (stopped after the test). */
  watching(): ResourceWatch
} {
  let current: { release(): Promise<void> } | undefined
  let watch: ResourceWatch | undefined
  afterEach(async () => {
    watch?.stop()
    watch = undefined
    const tested = current
    current = undefined
    await tested?.release()
  })
  return {
    track(tested) {
      current = tested
      return tested
    },
    watching() {
      watch = new ResourceWatch()
      return watch
    },
  }
}
