import { FirstTokenTimeoutError } from '../retry/errors.js'

/**
 * The first-token timeout of one model call: fails the call with {@link FirstTokenTimeoutError}
 * when no part came within `timeoutMs` (`<= 0` or `Infinity`: no timeout). `onTimeout` runs
 * first, to abort the request. Later parts may take any time and cost no timer.
 */
export class FirstPartDeadline {
  private timer?: ReturnType<typeof setTimeout>

  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: (error: FirstTokenTimeoutError) => void
  ) {}

  /**
   * Settles as `reading` (the whole model call) does, or rejects as soon as the deadline passes
   * without {@link FirstPartDeadline.met}: a source stuck in an await must not hold up the caller.
   */
  watch(reading: Promise<void>): Promise<void> {
    const timeoutMs = this.timeoutMs
    if (!(timeoutMs > 0) || timeoutMs === Infinity) return reading
    return new Promise<void>((resolve, reject) => {
      this.timer = setTimeout(() => {
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
  }
}
