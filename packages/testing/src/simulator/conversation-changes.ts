import type { MicdropConversationItem } from '@openmic/core/protocol'

/** A change of the conversation as the client sees it: an item, or the last user message taken back. */
export type SeenChange = MicdropConversationItem | 'cancel-last-user-message'

/** `items` with `changes` applied in order (as Micdrop's client does: a cancel drops the last user item). */
export function withChanges(
  items: readonly MicdropConversationItem[],
  changes: readonly SeenChange[]
): MicdropConversationItem[] {
  const result = [...items]
  for (const change of changes) {
    if (change !== 'cancel-last-user-message') result.push(change)
    else {
      const index = result.findLastIndex((item) => item.role === 'user')
      if (index !== -1) result.splice(index, 1)
    }
  }
  return result
}
