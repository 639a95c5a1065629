import { FirstTokenTimeoutError } from '../retry/errors.js'

/**
 * The first-token timeout of one model call: fails the call with {@link FirstTokenTimeoutError}
 * when no part came within `timeoutMs` (`<= 0` or `Infinity`: no timeout, and `firstPart()`
 * resolves at once). `onTimeout` runs first, to abort the request. Later parts may take any time
 * and cost no timer.
 */
export class FirstPartDeadline {
  private timer?: ReturnType<typeof setTimeout>
  private arrived?: () => void

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
      this.timer = setTimeout(() => {
        this.timer = undefined
        const error = new FirstTokenTimeoutError(timeoutMs)
        // The reading rejects once the request is aborted; nothing waits for it any more.
        reading.catch(() => {})
        this.onTimeout(error)
        reject(error)
      }, timeoutMs)
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
    if (this.timer === undefined) return
    clearTimeout(this.timer)
    this.timer = undefined
    this.arrived?.()
  }
}
