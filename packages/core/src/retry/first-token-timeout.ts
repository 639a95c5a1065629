import { FirstTokenTimeoutError } from './errors.js'

/**
 * Waits for `next` (the first item of a model stream), failing with {@link FirstTokenTimeoutError}
 * when it takes longer than `timeoutMs`; `onTimeout` runs first, to abort the request. Only the
 * first item is timed: later ones may take any time, and cost no timer. `timeoutMs <= 0` or
 * `Infinity` disables the timeout.
 */
export function firstWithin<T>(
  next: Promise<T>,
  timeoutMs: number,
  onTimeout: (error: FirstTokenTimeoutError) => void
): Promise<T> {
  if (!(timeoutMs > 0) || timeoutMs === Infinity) return next
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new FirstTokenTimeoutError(timeoutMs)
      // The pending next() rejects once the request is aborted; nothing waits for it any more.
      next.catch(() => {})
      onTimeout(error)
      reject(error)
    }, timeoutMs)
    next.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })
}
