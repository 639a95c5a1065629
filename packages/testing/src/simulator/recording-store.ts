import type { MicdropConversationItem } from '@openmic/core/protocol'
import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from '@openmic/server'
import type { CallLog } from './call-log.js'
import type { FullScript } from './script.js'

/**
 * The conversation store of a simulated call: it keeps every record, even after `end()` (so the
 * checks can read what was stored), and is as slow or failing as the script says, on virtual time.
 * It starts empty: the call opens a new conversation.
 */
export class RecordingStore implements ConversationStore {
  readonly records: ConversationRecord[] = []
  /** True from `load()` until its answer: the server holds the client's frames meanwhile. */
  loading = false
  private attempts = 0
  private readonly loadedListeners: Array<() => void> = []

  constructor(
    private readonly script: FullScript['store'],
    private readonly callLog: CallLog
  ) {}

  /** The conversation the records leave (a cancel removes the last user message). */
  get conversation(): MicdropConversationItem[] {
    const items: MicdropConversationItem[] = []
    for (const record of this.records) {
      if (record.type === 'item') items.push(record.item)
      else {
        const index = items.findLastIndex((item) => item.role === 'user')
        if (index !== -1) items.splice(index, 1)
      }
    }
    return items
  }

  /** Called once the history was handed over. */
  onLoaded(listener: () => void): void {
    this.loadedListeners.push(listener)
  }

  async load(_conversationId: string): Promise<ConversationRecord[]> {
    this.loading = true
    await this.wait(this.script.loadDelayMs)
    this.loading = false
    this.callLog.add({ type: 'store', what: 'loaded' })
    for (const listener of this.loadedListeners) listener()
    return []
  }

  async append(_conversationId: string, index: number, record: ConversationRecord): Promise<void> {
    const attempt = ++this.attempts
    await this.wait(this.script.appendDelayMs)
    if (this.script.failAppends.includes(attempt)) {
      this.callLog.add({ type: 'store', what: 'append', index, attempt, stored: false })
      throw new Error(`Scripted store failure (append attempt ${attempt})`)
    }
    if (index === this.records.length) {
      this.records.push(JSON.parse(JSON.stringify(record)) as ConversationRecord)
      this.callLog.add({ type: 'store', what: 'append', index, attempt, stored: true })
      return
    }
    if (JSON.stringify(this.records[index]) === JSON.stringify(record)) return
    throw new ConversationConflictError(
      `The store has ${this.records.length} records, cannot store record ${index}`
    )
  }

  async end(_conversationId: string): Promise<void> {
    this.callLog.add({ type: 'store', what: 'end' })
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve()
    return new Promise((resolve) => setTimeout(resolve, ms))
  }
}
