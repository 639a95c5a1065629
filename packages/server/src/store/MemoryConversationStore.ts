import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from './types.js'

export interface MemoryConversationStoreOptions {
  /** A conversation is forgotten this long after its last change (default 3 600 s). */
  ttlSeconds?: number
}

interface Stored {
  records: string[]
  expiresAt: number
}

/** How often expired conversations are swept (on the next write). */
const SWEEP_INTERVAL_MS = 60_000

/**
 * A {@link ConversationStore} in this process's memory: calls resume after a network drop, not
 * after a restart or on another instance (use `@openmic/redis` for that). It is the store of a
 * `MicdropServer` given a `conversationId` and no `store`. Records are kept as JSON, so what is
 * loaded is a copy.
 */
export class MemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, Stored>()
  private readonly ttlMs: number
  private sweptAt = Date.now()

  constructor(options: MemoryConversationStoreOptions = {}) {
    this.ttlMs = (options.ttlSeconds ?? 3600) * 1000
  }

  async load(conversationId: string): Promise<ConversationRecord[]> {
    const records = this.live(conversationId)?.records ?? []
    return records.map((json) => JSON.parse(json) as ConversationRecord)
  }

  async append(conversationId: string, index: number, record: ConversationRecord): Promise<void> {
    this.sweep()
    const json = JSON.stringify(record)
    let stored = this.live(conversationId)
    if (!stored) this.conversations.set(conversationId, (stored = { records: [], expiresAt: 0 }))
    stored.expiresAt = Date.now() + this.ttlMs
    if (stored.records.length === index) {
      stored.records.push(json)
      return
    }
    if (stored.records[index] === json) return
    throw new ConversationConflictError(
      `Conversation ${conversationId} has ${stored.records.length} records, cannot store record ${index}`
    )
  }

  async end(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId)
  }

  private live(conversationId: string): Stored | undefined {
    const stored = this.conversations.get(conversationId)
    if (stored && stored.expiresAt <= Date.now()) {
      this.conversations.delete(conversationId)
      return undefined
    }
    return stored
  }

  private sweep() {
    const now = Date.now()
    if (now - this.sweptAt < SWEEP_INTERVAL_MS) return
    this.sweptAt = now
    for (const [id, stored] of this.conversations) {
      if (stored.expiresAt <= now) this.conversations.delete(id)
    }
  }
}

let defaultStore: MemoryConversationStore | undefined

/** The process's in-memory store, made on first use. */
export function defaultConversationStore(): MemoryConversationStore {
  return (defaultStore ??= new MemoryConversationStore())
}
