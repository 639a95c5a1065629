import { it } from 'vitest'
import { expectNothingAfterDestroy } from './event-log.js'
import { expectReleased } from './resources.js'
import { failOnUnhandledErrors, pause, type SpeechConformanceTiming } from './speech-kit.js'
import { speechTestLifecycle, type TestedSpeech } from './tested-speech.js'

/** How late after its stall timeout a class may report `Failed` (timers, a loaded machine). */
const STALL_MARGIN_MS = 1000

/** What the STT and TTS suites share inside their `describe`: timings, instances, the destroy tests. */
export interface SpeechSuite<Tested> {
  timeoutMs: number
  quietMs: number
  /** The vitest timeout of one case: every wait it may make, and a margin. */
  caseTimeout: number
  /** Builds the instance of the running test (released after it). */
  start(): Promise<Tested>
  /**
   * Waits for the `Failed` of a provider that failed (within `timeoutMs`) or stalled (within the
   * class's stall timeout, and a margin), logged after `mark`.
   */
  untilFailed(tested: Tested, mark: number, kind: 'failure' | 'stall'): Promise<void>
  /**
   * Declares a test that watches every timer and socket from `make()` on, runs `destroyWhile`
   * (which calls `destroy()` somewhere), and then requires nothing emitted after `destroy()` and
   * everything released.
   */
  itReleasesOnDestroy(title: string, destroyWhile: (tested: Tested) => Promise<void>): void
}

/**
 * Sets up a speech suite inside its `describe`: unhandled rejections fail the test, each test's
 * instance is released after it, and the timings get their defaults. `tested` wraps what `make()`
 * returned; `extraMs` is how much longer than the shared waits one case of this suite may take.
 */
export function speechSuite<Setup, Tested extends TestedSpeech<{ destroy(): void }>>(
  options: SpeechConformanceTiming & {
    make(): Setup | Promise<Setup>
    stallTimeoutMs?: number
  },
  tested: (setup: Setup) => Tested,
  extraMs = 0
): SpeechSuite<Tested> {
  const { timeoutMs = 5000, quietMs = 400, releaseTimeoutMs = 1000 } = options
  const ignoreResources = options.ignoreResources ?? []
  const caseTimeout = 4 * timeoutMs + releaseTimeoutMs + 4 * quietMs + 5000 + extraMs
  failOnUnhandledErrors()
  const { track, watching } = speechTestLifecycle()
  const start = async () => track(tested(await options.make()))
  const { stallTimeoutMs } = options

  function untilFailed(instance: Tested, mark: number, kind: 'failure' | 'stall') {
    if (kind === 'failure') return instance.untilFailed(mark, timeoutMs)
    const limit = (stallTimeoutMs ?? 0) + STALL_MARGIN_MS
    return instance.untilFailed(
      mark,
      limit,
      `Failed ${stallTimeoutMs} ms after the provider stalled`
    )
  }

  function itReleasesOnDestroy(title: string, destroyWhile: (tested: Tested) => Promise<void>) {
    it(
      title,
      async () => {
        const watch = watching()
        const instance = await start()
        await destroyWhile(instance)
        await pause(quietMs)
        expectNothingAfterDestroy(instance.log)
        await expectReleased(watch, releaseTimeoutMs, ignoreResources)
      },
      caseTimeout
    )
  }

  return { timeoutMs, quietMs, caseTimeout, start, untilFailed, itReleasesOnDestroy }
}
