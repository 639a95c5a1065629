import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from '@openmic/server'
import { Redis, type RedisOptions } from 'ioredis'

export interface RedisConversationStoreOptions {
  /** A connected ioredis client (shared with the app), or where to connect (`redis://host:6379/0`). */
  redis?: Redis | string
  /** Options of the client made from a URL (ignored with a client). */
  redisOptions?: RedisOptions
  /**
   * Seconds a conversation is kept after its last change (default 86 400: one day). Each append
   * renews it. 0 keeps conversations until they end.
   */
  ttlSeconds?: number
  /** Prefix of the keys (default `openmic:conversation:`). */
  keyPrefix?: string
}

/**
 * Appends at a position, atomically: the same record already there is a retry (0), another one or
 * a gap is a conflict. Renews the TTL.
 */
const APPEND_SCRIPT = `
local length = redis.call('LLEN', KEYS[1])
local index = tonumber(ARGV[1])
if length == index then
  redis.call('RPUSH', KEYS[1], ARGV[2])
  if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
  return 1
end
if length > index and redis.call('LINDEX', KEYS[1], index) == ARGV[2] then return 0 end
return redis.error_reply('CONFLICT conversation has ' .. length .. ' records, cannot store record ' .. index)
`

interface AppendCommand {
  openmicAppend(key: string, index: number, json: string, ttl: number): Promise<number>
}

/**
 * A {@link ConversationStore} in Redis: each conversation is a list of JSON records under
 * `<keyPrefix><conversationId>`, appended by a Lua script so that a retried write is stored once
 * and two instances writing one conversation are told apart (a conflict). Any instance can resume
 * a call that another one served.
 *
 * Durability is Redis's: with the default snapshots a Redis crash loses the last seconds; run it
 * with `appendonly yes` to keep every acknowledged record.
 *
 * @example
 * const store = new RedisConversationStore({ redis: process.env.REDIS_URL, ttlSeconds: 3600 })
 * new MicdropServer(socket, { agent, stt, tts, store, conversationId })
 */
export class RedisConversationStore implements ConversationStore {
  /** The ioredis client (made from the URL, or the one given). */
  readonly redis: Redis
  private readonly ownsClient: boolean
  private readonly ttlSeconds: number
  private readonly keyPrefix: string

  constructor(options: RedisConversationStoreOptions = {}) {
    if (typeof options.redis === 'object') {
      this.redis = options.redis
      this.ownsClient = false
    } else {
      this.redis = new Redis(options.redis ?? 'redis://127.0.0.1:6379', options.redisOptions ?? {})
      this.ownsClient = true
      // Connection errors reach each call as its `StoreError` event; ioredis reconnects by itself.
      this.redis.on('error', () => {})
    }
    this.redis.defineCommand('openmicAppend', { numberOfKeys: 1, lua: APPEND_SCRIPT })
    this.ttlSeconds = options.ttlSeconds ?? 86_400
    this.keyPrefix = options.keyPrefix ?? 'openmic:conversation:'
  }

  async load(conversationId: string): Promise<ConversationRecord[]> {
    const records = await this.redis.lrange(this.key(conversationId), 0, -1)
    return records.map((json) => JSON.parse(json) as ConversationRecord)
  }

  async append(conversationId: string, index: number, record: ConversationRecord): Promise<void> {
    try {
      await (this.redis as unknown as AppendCommand).openmicAppend(
        this.key(conversationId),
        index,
        JSON.stringify(record),
        this.ttlSeconds
      )
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('CONFLICT')) {
        throw new ConversationConflictError(`${conversationId}: ${error.message}`)
      }
      throw error
    }
  }

  async end(conversationId: string): Promise<void> {
    await this.redis.del(this.key(conversationId))
  }

  /** Closes the client if the store made it (a client given to the store is left open). */
  async close(): Promise<void> {
    if (this.ownsClient) await this.redis.quit().catch(() => this.redis.disconnect())
  }

  private key(conversationId: string) {
    return this.keyPrefix + conversationId
  }
}
