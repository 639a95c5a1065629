import { WorkerHost, type WorkerOwner, type WorkerResponse } from './WorkerHost.js'

/**
 * Workers of one kind, kept loaded between owners: a `LocalSTT` destroyed at the end of a call
 * gives its worker (and its loaded model) back, and the next call's `LocalSTT` starts at once;
 * `prepare()` starts one ahead of the first call.
 * At most `maxIdle` idle workers are kept per configuration; they never keep the process alive.
 */
export class WorkerPool<Request, Response extends WorkerResponse> {
  private readonly idle = new Map<string, Array<WorkerHost<Request, Response>>>()

  constructor(
    private readonly url: URL,
    private readonly maxIdle = 1
  ) {}

  /** A loaded (or loading) worker for this configuration, now sending its messages to `owner`. */
  acquire(workerData: unknown, owner: WorkerOwner<Response>): WorkerHost<Request, Response> {
    const key = JSON.stringify(workerData)
    const idle = this.idle.get(key) ?? []
    let host = idle.pop()
    while (host && !host.usable) host = idle.pop()
    host ??= new WorkerHost<Request, Response>(this.url, workerData)
    host.attach(owner)
    return host
  }

  /**
   * Makes sure an idle worker for this configuration is loaded or loading, ahead of its first
   * owner: the next `acquire()` takes it, even before it has loaded. Starts one only when no
   * healthy worker is idle.
   */
  prepare(workerData: unknown): WorkerHost<Request, Response> {
    const key = JSON.stringify(workerData)
    const idle = (this.idle.get(key) ?? []).filter((host) => host.usable)
    let host = idle.at(-1)
    if (!host) {
      host = new WorkerHost<Request, Response>(this.url, workerData)
      idle.push(host)
    }
    this.idle.set(key, idle)
    return host
  }

  /** Takes a worker back: kept for the next owner when healthy and there is room, else stopped. */
  giveBack(workerData: unknown, host: WorkerHost<Request, Response>): void {
    host.attach(undefined)
    const key = JSON.stringify(workerData)
    const idle = this.idle.get(key) ?? []
    if (!host.usable || idle.length >= this.maxIdle) {
      host.terminate()
      return
    }
    idle.push(host)
    this.idle.set(key, idle)
  }
}
