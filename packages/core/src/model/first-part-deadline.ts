import { performance } from 'node:perf_hooks'
import { FirstTokenTimeoutError } from '../retry/errors.js'
import { answerDeadlines, type Deadline } from './shared-deadlines.js'

/**
 * The first-token timeout of one model call: fails the call with {@link FirstTokenTimeoutError}
 * when no part came within `timeoutMs` (`<= 0` or `Infinity`: no timeout, and `firstPart()`
 * resolves at once). `onTimeout` runs first, to abort the request. Later parts may take any time
 * and cost nothing. The deadlines of all calls share one timer (`answerDeadlines`).
 */
export class FirstPartDeadline implements Deadline {
  /** When the first part is due (a `performance.now()` time), once `firstPart()` was called. */
  at = Infinity
  private arrived?: () => void
  private timedOut?: (error: FirstTokenTimeoutError) => void
  private reading?: Promise<void>

  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: (error: FirstTokenTimeoutError) => void
  ) {}

  /**
   * Resolves at the first part (or when `reading`, the whole model call, ends without any) and
   * rejects when `reading` fails first, or as soon as the deadline passes: a source stuck in an
   * await must not hold up the caller. Await `reading` itself afterwards: one promise layer less
   * between the end of the model's stream and the end of the answer.
   */
  firstPart(reading: Promise<void>): Promise<void> {
    const timeoutMs = this.timeoutMs
    if (!(timeoutMs > 0) || timeoutMs === Infinity) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      this.arrived = resolve
      this.timedOut = reject
      this.reading = reading
      this.at = performance.now() + timeoutMs
      answerDeadlines.add(this)
      reading.then(
        () => {
          this.met()
          resolve()
        },
        (error: unknown) => {
          this.met()
          reject(error)
        }
      )
    })
  }

  /** A part arrived (or the call ended): the deadline no longer applies. */
  met(): void {
    const arrived = this.arrived
    if (arrived === undefined) return
    this.arrived = undefined
    answerDeadlines.remove(this)
    arrived()
  }

  /** The deadline passed without a part: called by the shared timer. */
  expire(): void {
    if (this.arrived === undefined) return
    this.arrived = undefined
    const error = new FirstTokenTimeoutError(this.timeoutMs)
    // The reading rejects once the request is aborted; nothing waits for it any more.
    this.reading?.catch(() => {})
    this.onTimeout(error)
    this.timedOut?.(error)
  }
}
