export { TelnyxServer } from './TelnyxServer.js'
export type { TelnyxServerEvents, TelnyxServerOptions, TelnyxStart } from './TelnyxServer.js'
export { telnyxHangUp } from './http/hang-up.js'
export { telnyxStreamingOptions, type TelnyxStreamingOptions } from './http/streaming-options.js'
