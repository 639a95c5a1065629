export {
  RedisConversationStore,
  type RedisConversationStoreOptions,
} from './RedisConversationStore.js'
