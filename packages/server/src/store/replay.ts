import type { MicdropConversationItem } from '@openmic/core/protocol'
import type { ConversationRecord } from './types.js'

/** The conversation items that a list of records leaves (a cancel removes the last user message). */
export function replayRecords(records: ConversationRecord[]): MicdropConversationItem[] {
  const items: MicdropConversationItem[] = []
  for (const record of records) {
    if (record.type === 'item') {
      items.push(record.item)
    } else {
      const index = items.findLastIndex((item) => item.role === 'user')
      if (index !== -1) items.splice(index, 1)
    }
  }
  return items
}

/** A user message has no assistant message after it: the client left before its answer. */
export function isUnanswered(items: MicdropConversationItem[]): boolean {
  const lastUser = items.findLastIndex((item) => item.role === 'user')
  const lastAssistant = items.findLastIndex((item) => item.role === 'assistant')
  return lastUser > lastAssistant
}
