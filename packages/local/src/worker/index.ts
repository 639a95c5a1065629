export { WorkerHost } from './WorkerHost.js'
export { serve } from './serve.js'
