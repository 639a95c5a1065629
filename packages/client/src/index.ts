// The public surface: what applications use. Importing it touches no browser global: everything
// starts on `start()`.
export * from './client/index.js'
export * from './audio/index.js'
export * from './vad/index.js'
export * from './devices/index.js'
export { Micdrop } from './singleton.js'
export type {
  MicdropConversation,
  MicdropConversationItem,
  MicdropToolCall,
  MicdropTurnMetrics,
} from '@openmic/core/protocol'
