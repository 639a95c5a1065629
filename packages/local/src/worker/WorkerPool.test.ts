import { afterEach, describe, expect, it } from 'vitest'
import type { WorkerHost, WorkerOwner, WorkerResponse } from './WorkerHost.js'
import { WorkerPool } from './WorkerPool.js'

/** A worker that only says it has loaded. */
const READY_WORKER = new URL(
  `data:text/javascript,${encodeURIComponent(
    "import { parentPort } from 'node:worker_threads'; parentPort.postMessage({ type: 'ready' })"
  )}`
)

const owner: WorkerOwner<WorkerResponse> = { onMessage() {}, onFatal() {} }

describe('WorkerPool.prepare', () => {
  const started: Array<WorkerHost<unknown, WorkerResponse>> = []
  const track = (host: WorkerHost<unknown, WorkerResponse>) => (started.push(host), host)
  afterEach(() => started.splice(0).forEach((host) => host.terminate()))

  it('starts a worker that the next acquire() takes, even before it has loaded', async () => {
    const pool = new WorkerPool<unknown, WorkerResponse>(READY_WORKER)
    const prepared = track(pool.prepare({ voice: 'a' }))
    expect(pool.acquire({ voice: 'a' }, owner)).toBe(prepared)
    await expect(prepared.ready).resolves.toBeUndefined()
  })

  it('starts no other worker while one is idle for the same configuration', () => {
    const pool = new WorkerPool<unknown, WorkerResponse>(READY_WORKER)
    const prepared = track(pool.prepare({ voice: 'a' }))
    expect(pool.prepare({ voice: 'a' })).toBe(prepared)
    expect(track(pool.prepare({ voice: 'b' }))).not.toBe(prepared)
  })

  it('starts another one once the idle worker was taken, or when it stopped', () => {
    const pool = new WorkerPool<unknown, WorkerResponse>(READY_WORKER)
    const first = track(pool.prepare({ voice: 'a' }))
    pool.acquire({ voice: 'a' }, owner)
    const second = track(pool.prepare({ voice: 'a' }))
    expect(second).not.toBe(first)
    second.terminate()
    const third = track(pool.prepare({ voice: 'a' }))
    expect(third).not.toBe(second)
    expect(pool.acquire({ voice: 'a' }, owner)).toBe(third)
  })
})
