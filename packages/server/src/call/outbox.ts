import type { CallOutput, ConversationChange } from './types.js'

/**
 * What an entry's owner says of it: release it now (final: the store keeps it, the client sees
 * it), show it to the client before it is final (`preview`), or wait.
 */
export type Release = 'now' | 'preview' | 'wait'

/** Who decides when an entry goes: the answer that produced it. */
export interface OutboxOwner {
  releaseOf(entry: OutboxEntry): Release
}

export interface OutboxEntry {
  change: ConversationChange
  readonly owner?: OutboxOwner
  /** The client was shown it before it was final (a Micdrop client sees an answer as it starts). */
  previewed: boolean
  /** Taken back before its release (an answer nobody heard): nothing is stored, nothing sent. */
  dropped: boolean
}

/**
 * The conversation changes of one call, in the order they happened, released in that order:
 * an entry goes once every entry before it went and its owner's rule lets it (an answer's items
 * wait until it was heard, cut, or settled by a noise verdict); an entry without an owner goes as
 * soon as its turn comes. So the client, the store and the agent see one conversation, in one order.
 */
export class Outbox {
  private readonly entries: OutboxEntry[] = []

  constructor(private readonly output: CallOutput) {}

  /** Nothing waits to be released. */
  get empty(): boolean {
    return this.entries.length === 0
  }

  /**
   * Queues `change` behind the others, and releases what can go. Taking back a user message that
   * has not gone yet drops it instead: the store and the client never see it.
   */
  push(change: ConversationChange, owner?: OutboxOwner): OutboxEntry {
    const entry: OutboxEntry = { change, owner, previewed: false, dropped: false }
    if (change.type === 'cancel-last-user-message') {
      const message = this.entries.findLast(
        (other) =>
          !other.dropped && other.change.type === 'item' && other.change.item.role === 'user'
      )
      if (message && !message.previewed) {
        message.dropped = entry.dropped = true
        this.flush()
        return entry
      }
    }
    this.entries.push(entry)
    this.flush()
    return entry
  }

  /** Releases, in order, every entry that can go now. */
  flush(): void {
    while (this.entries.length > 0) {
      const head = this.entries[0]!
      const release = head.dropped ? 'now' : (head.owner?.releaseOf(head) ?? 'now')
      if (release === 'wait') return
      if (release === 'preview') {
        if (!head.previewed) this.output.change(head.change, { frame: true, record: false })
        head.previewed = true
        return
      }
      this.entries.shift()
      if (head.dropped) continue
      this.output.change(head.change, { frame: !head.previewed, record: true })
    }
  }

  /** The call ended: what has not gone is dropped. */
  clear(): void {
    this.entries.length = 0
  }
}
