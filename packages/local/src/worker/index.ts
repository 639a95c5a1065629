export { WorkerHost } from './WorkerHost.js'
export type { WorkerOwner, WorkerResponse } from './WorkerHost.js'
export { WorkerPool } from './WorkerPool.js'
export { serve } from './serve.js'
