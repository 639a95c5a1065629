export { Logger } from './Logger.js'
export type { LogSink } from './Logger.js'
