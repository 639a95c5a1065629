export { MicdropClient } from './MicdropClient.js'
export {
  MicdropClientError,
  MicdropClientErrorCode,
  errorFromClose,
  errorFromMic,
  isRecoverableClose,
} from './MicdropClientError.js'
export { DEFAULT_RECONNECT_OPTIONS, reconnectDelayMs } from './reconnect.js'
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
