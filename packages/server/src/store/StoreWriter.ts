import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
  type StoreCallReport,
  type StoreOperation,
} from './types.js'

export interface StoreWriterOptions {
  store: ConversationStore
  conversationId: string
  /** How long a frame waits for its record to be stored before it goes out anyway (ms). */
  timeoutMs: number
  /** A store operation failed (or timed out); called once per outage, not per retry. */
  onError: (error: unknown, operation: StoreOperation) => void
  /** Each call to the store, once it ended. */
  onCall?: (call: StoreCallReport) => void
  log: (...message: unknown[]) => void
}

interface PendingWrite {
  index: number
  record: ConversationRecord
  /** Lets the frame that waits for this record go out. */
  release: () => void
}

const RETRY_DELAYS_MS = [100, 250, 500, 1000, 2000]

/**
 * Writes one call's records to the store, in order, one at a time. While the store answers in
 * time, each frame waits for its record (what the client saw is stored). When it fails or is slow,
 * frames stop waiting (the call goes on), the failure is reported once, and the writes are retried
 * in order until the store catches up.
 */
export class StoreWriter {
  private next = 0
  private readonly queue: PendingWrite[] = []
  private running = false
  /** A write failed or was slow and the queue has not caught up since: frames do not wait. */
  private lagging = false
  /** A conflict: the stored history is not this call's any more; nothing more is written. */
  private stopped = false
  private abandoned = false
  private idle: Array<() => void> = []

  constructor(private readonly options: StoreWriterOptions) {}

  /** Loads the records (timing out like a write); sets where the next record goes. */
  async load(): Promise<ConversationRecord[]> {
    const { store, conversationId, timeoutMs } = this.options
    const records = await this.timed('load', undefined, () =>
      withTimeout(store.load(conversationId), timeoutMs * 2, 'load')
    )
    this.next = records.length
    return records
  }

  /** Runs one call to the store, and reports it (`onCall`) however it ends. */
  async timed<T>(
    operation: StoreOperation,
    index: number | undefined,
    call: () => Promise<T>
  ): Promise<T> {
    const startAt = performance.now()
    const report = (error?: unknown) =>
      this.options.onCall?.({
        operation,
        ...(index !== undefined && { index }),
        startAt,
        endAt: performance.now(),
        ...(error !== undefined && { error }),
      })
    try {
      const result = await call()
      report()
      return result
    } catch (error) {
      report(error ?? new Error('The store rejected without a reason'))
      throw error
    }
  }

  /** Stops writing (after a failed load, the position of new records is unknown). */
  stop(): void {
    this.stopped = true
  }

  /**
   * Queues `record`; resolves when the frame that shows it may go out: once stored, or at once
   * while the store is failing, or after `timeoutMs`.
   */
  append(record: ConversationRecord): Promise<void> {
    if (this.stopped) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let released = false
      let timer: NodeJS.Timeout | undefined
      const release = () => {
        if (released) return
        released = true
        clearTimeout(timer)
        resolve()
      }
      this.queue.push({ index: this.next++, record, release })
      if (this.lagging) release()
      else {
        timer = setTimeout(() => {
          if (released) return
          this.reportOnce(new Error(`The store took over ${this.options.timeoutMs} ms`), 'append')
          release()
        }, this.options.timeoutMs)
      }
      void this.run()
    })
  }

  /** Resolves true once every queued record is stored, false if `deadline` (epoch ms) came first. */
  flush(deadline: number): Promise<boolean> {
    if (this.queue.length === 0 || this.stopped) return Promise.resolve(this.queue.length === 0)
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))
      this.idle.push(() => {
        clearTimeout(timer)
        resolve(true)
      })
    })
  }

  /** After the call: keeps retrying until `deadline`, then drops what is left (and says so). */
  abandonAt(deadline: number): void {
    void this.flush(deadline).then((done) => {
      if (done) return
      this.abandoned = true
      this.options.log(
        `Store: gave up on ${this.queue.length} record(s) of conversation ${this.options.conversationId}`
      )
      for (const write of this.queue.splice(0)) write.release()
    })
  }

  private async run() {
    if (this.running) return
    this.running = true
    let attempt = 0
    while (this.queue.length > 0 && !this.stopped && !this.abandoned) {
      const write = this.queue[0]!
      try {
        await this.timed('append', write.index, () =>
          this.options.store.append(this.options.conversationId, write.index, write.record)
        )
        this.queue.shift()
        write.release()
        attempt = 0
      } catch (error) {
        this.reportOnce(error, 'append')
        for (const pending of this.queue) pending.release()
        if (error instanceof ConversationConflictError) {
          this.stopped = true
          break
        }
        await sleep(RETRY_DELAYS_MS[Math.min(attempt++, RETRY_DELAYS_MS.length - 1)]!)
      }
    }
    if (this.queue.length === 0 && this.lagging) {
      this.lagging = false
      this.options.log('Store: caught up')
    }
    this.running = false
    if (this.queue.length === 0 || this.stopped) {
      for (const resolve of this.idle.splice(0)) resolve()
    }
  }

  private reportOnce(error: unknown, operation: StoreOperation) {
    if (this.lagging) return
    this.lagging = true
    this.options.onError(error, operation)
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Rejects after `ms` if `promise` has not settled. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The store's ${what} took over ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
