import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from './types.js'

/**
 * A {@link ConversationStore} in this process's memory: calls resume after a network drop, not
 * after a restart or on another instance (use `@openmic/redis` for that). Records are kept as JSON,
 * so what is loaded is a copy.
 */
export class MemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, string[]>()

  async load(conversationId: string): Promise<ConversationRecord[]> {
    const records = this.conversations.get(conversationId) ?? []
    return records.map((json) => JSON.parse(json) as ConversationRecord)
  }

  async append(conversationId: string, index: number, record: ConversationRecord): Promise<void> {
    const json = JSON.stringify(record)
    let records = this.conversations.get(conversationId)
    if (!records) this.conversations.set(conversationId, (records = []))
    if (records.length === index) {
      records.push(json)
      return
    }
    if (records[index] === json) return
    throw new ConversationConflictError(
      `Conversation ${conversationId} has ${records.length} records, cannot store record ${index}`
    )
  }

  async end(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId)
  }
}
