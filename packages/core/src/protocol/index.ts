// Browser-safe: nothing here may import a Node built-in.
export {
  MicdropClientCommands,
  MicdropServerCommands,
  MicdropCloseCodes,
  MICDROP_AUDIO_FORMAT,
  audioBytes,
  audioMs,
} from './commands.js'
export type { MicdropClientCommand, MicdropServerCommand, MicdropCloseCode } from './commands.js'
export { encodeServerMessage, parseServerMessage } from './messages.js'
export type {
  MicdropCaption,
  MicdropServerHello,
  MicdropServerMessage,
  MicdropTurnMetrics,
} from './messages.js'
export type * from '../conversation/types.js'
export {
  MicdropClientExtensions,
  encodeClientHello,
  encodePlayed,
  parseClientExtension,
} from './extensions.js'
export type { MicdropClientExtension, MicdropClientHello, MicdropPlayed } from './extensions.js'
