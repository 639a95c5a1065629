import { FirstTokenTimeoutError } from './errors.js'

/**
 * Iterates `source`, failing with {@link FirstTokenTimeoutError} when its first item takes longer
 * than `timeoutMs` (counted from the first `next()`, so it includes opening the request). `onTimeout`
 * runs first, to abort the request. Later items may take any time. `timeoutMs <= 0` or `Infinity`
 * disables the timeout.
 */
export async function* withFirstTokenTimeout<T>(
  source: AsyncIterable<T>,
  timeoutMs: number,
  onTimeout: (error: FirstTokenTimeoutError) => void
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]()
  let completed = false
  try {
    let result = await firstWithin(iterator.next(), timeoutMs, onTimeout)
    while (!result.done) {
      yield result.value
      result = await iterator.next()
    }
    completed = true
  } finally {
    // Not awaited: a source stuck in an await (the stalled request) must not hold up the caller.
    if (!completed) iterator.return?.().catch(() => {})
  }
}

function firstWithin<T>(
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
