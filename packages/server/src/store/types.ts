import type { MicdropConversationItem } from '@openmic/core/protocol'

/**
 * One change to a stored conversation, in the order the client saw it: an item (the `Message`
 * frame), or the agent taking back the last user message (the `CancelLastUserMessage` frame).
 */
export type ConversationRecord =
  { type: 'item'; item: MicdropConversationItem } | { type: 'cancel-last-user-message' }

/**
 * Where calls keep their conversations, so that a call that comes back (after a network drop or a
 * server restart, on any instance) continues with its whole history. A conversation is the list of
 * its records, without the system prompt (that belongs to the agent).
 *
 * `append` must be idempotent and ordered: the server retries a write whose answer was lost, and
 * never writes record `index` before record `index - 1` was stored.
 */
export interface ConversationStore {
  /** The records of a conversation, in order; `[]` for an unknown id. */
  load(conversationId: string): Promise<ConversationRecord[]>
  /**
   * Stores `record` at position `index` (the number of records before it). If a record is already
   * stored at `index`: resolves when it is the same record (a retry), else rejects with a
   * {@link ConversationConflictError}, as it does when records are missing before `index`.
   */
  append(conversationId: string, index: number, record: ConversationRecord): Promise<void>
  /** The call ended for good (normal close): the store may forget the conversation. */
  end(conversationId: string): Promise<void>
}

/**
 * Another writer changed the conversation (or records are missing): this call's history no longer
 * matches the stored one. The server stops writing for the call; it is not retried.
 */
export class ConversationConflictError extends Error {
  override readonly name = 'ConversationConflictError'
}

/** Which store operation failed, as reported by the `StoreError` event. */
export type StoreOperation = 'load' | 'append' | 'end'

/** One call to the store, once it ended (the `StoreCall` event). */
export interface StoreCallReport {
  operation: StoreOperation
  /** An append's position (the number of records before it). */
  index?: number
  /** When it was made and when it ended (performance.now()). */
  startAt: number
  endAt: number
  /** Why it failed (a load that took too long fails with a timeout). */
  error?: unknown
}
