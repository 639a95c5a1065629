import { Worker, type TransferListItem } from 'node:worker_threads'

/** What every worker answers: `ready` once loaded, then its own messages. */
export type WorkerResponse = { type: 'ready' } | { type: string }

/**
 * Owns one worker thread. The worker does not keep the process alive unless work is pending
 * (`hold()` / `release()`); a crash or an exception at load becomes one `onFatal` call.
 */
export class WorkerHost<Request, Response extends WorkerResponse> {
  /** Resolves once the worker has loaded (its first `ready` message); rejects if it cannot. */
  readonly ready: Promise<void>
  private readonly worker: Worker
  private holds = 0
  private terminated = false
  private failure?: Error

  constructor(
    url: URL,
    workerData: unknown,
    private readonly onMessage: (message: Response) => void,
    private readonly onFatal: (error: Error) => void
  ) {
    let resolveReady!: () => void
    let rejectReady!: (error: Error) => void
    this.ready = new Promise<void>((resolve, reject) => {
      resolveReady = resolve
      rejectReady = reject
    })
    // A rejection nobody awaits must not crash the process: failures also reach onFatal.
    this.ready.catch(() => {})
    this.worker = new Worker(url, { workerData })
    this.worker.unref()
    this.worker.on('message', (message: Response) => {
      if (message.type === 'ready') resolveReady()
      else this.onMessage(message)
    })
    this.worker.on('error', (error) => {
      rejectReady(error)
      this.fail(error)
    })
    this.worker.on('exit', (code) => {
      const error = new Error(`@openmic/local worker exited with code ${code}`)
      rejectReady(error)
      if (!this.terminated) this.fail(error)
    })
  }

  /** The error that stopped the worker, if it stopped. */
  get error(): Error | undefined {
    return this.failure
  }

  /** Sends a message; dropped when the worker has stopped. */
  post(message: Request, transfer?: readonly TransferListItem[]): void {
    if (this.failure || this.terminated) return
    this.worker.postMessage(message, transfer)
  }

  /** Keeps the process alive until the matching `release()`: an answer is awaited. */
  hold(): void {
    if (this.holds++ === 0) this.worker.ref()
  }

  release(): void {
    if (this.holds > 0 && --this.holds === 0) this.worker.unref()
  }

  /** Stops the worker. */
  terminate(): void {
    if (this.terminated) return
    this.terminated = true
    void this.worker.terminate()
  }

  private fail(error: Error) {
    if (this.failure || this.terminated) return
    this.failure = error
    this.onFatal(error)
  }
}
