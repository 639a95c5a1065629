import { Worker, type TransferListItem } from 'node:worker_threads'

/** What every worker answers: `ready` once loaded, then its own messages. */
export type WorkerResponse = { type: 'ready' } | { type: string }

/** Who receives a worker's messages and its crash. */
export interface WorkerOwner<Response> {
  onMessage(message: Response): void
  onFatal(error: Error): void
}

/**
 * Owns one worker thread. The worker does not keep the process alive unless work is pending
 * (`hold()` / `release()`); a crash or an exception at load becomes one `onFatal` call of the
 * current owner. Owners change when a pool lends the worker again (`attach`).
 */
export class WorkerHost<Request, Response extends WorkerResponse> {
  /** Resolves once the worker has loaded (its first `ready` message); rejects if it cannot. */
  readonly ready: Promise<void>
  private readonly worker: Worker
  private owner?: WorkerOwner<Response>
  private holds = 0
  private terminated = false
  private failure?: Error

  constructor(url: URL, workerData: unknown) {
    let resolveReady!: () => void
    let rejectReady!: (error: Error) => void
    this.ready = new Promise<void>((resolve, reject) => {
      resolveReady = resolve
      rejectReady = reject
    })
    // A rejection nobody awaits must not crash the process: failures also reach onFatal.
    this.ready.catch(() => {})
    // Workers inherit the process's Node options; `--input-type` (set by `node -e` scripts) would
    // make a worker fail to start.
    const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'))
    this.worker = new Worker(url, { workerData, execArgv })
    this.worker.unref()
    this.worker.on('message', (message: Response) => {
      if (message.type === 'ready') resolveReady()
      else this.owner?.onMessage(message)
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

  /** Whether the worker can still take work. */
  get usable(): boolean {
    return !this.failure && !this.terminated
  }

  /** Sends the worker's messages (and its crash) to `owner` from now on; none when undefined. */
  attach(owner: WorkerOwner<Response> | undefined): void {
    this.owner = owner
    if (!owner) this.releaseAll()
  }

  /** Sends a message; dropped when the worker has stopped. */
  post(message: Request, transfer?: readonly TransferListItem[]): void {
    if (!this.usable) return
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
    this.releaseAll()
    void this.worker.terminate()
  }

  private releaseAll() {
    if (this.holds > 0) this.worker.unref()
    this.holds = 0
  }

  private fail(error: Error) {
    if (this.failure || this.terminated) return
    this.failure = error
    this.owner?.onFatal(error)
  }
}
