export { TwilioServer } from './TwilioServer.js'
export type { TwilioServerEvents, TwilioServerOptions, TwilioStart } from './TwilioServer.js'
