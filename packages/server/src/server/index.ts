export { MicdropServer } from './MicdropServer.js'
export type { MicdropServerEvents, MicdropServerOptions } from './types.js'
