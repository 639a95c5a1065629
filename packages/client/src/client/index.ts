export { MicdropClient } from './MicdropClient.js'
export { MicdropClientError, MicdropClientErrorCode } from './MicdropClientError.js'
export type { MicdropReconnectOptions } from './reconnect.js'
export type {
  MicdropOptions,
  MicdropState,
  MicdropClientEvents,
  MicdropClientDeps,
  MicdropMic,
  MicdropSpeaker,
  MicdropWebSocket,
} from './types.js'
