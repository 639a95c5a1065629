import type { Agent } from '@openmic/core'
import type { MicdropConversationItem, MicdropServerCommand } from '@openmic/core/protocol'
import { FrameGate } from './FrameGate.js'
import { isUnanswered, replayRecords } from './replay.js'
import { StoreWriter, type StoreWriterOptions } from './StoreWriter.js'

/** How long records of an ended call are still retried when the store is down. */
const AFTER_END_RETRY_MS = 30_000

/** How a call with a store starts: a new conversation, or a resumed one (answered or silent). */
export type ResumeMode = 'new' | 'answer' | 'silent'

/**
 * The store side of one call: loads the history into the agent before the first turn, then records
 * every conversation change the client is sent (frames wait in `gate` for their record).
 */
export class CallStore {
  readonly gate = new FrameGate()
  private readonly writer: StoreWriter
  /** Client frames received while the history loads. */
  private incoming?: Array<() => void>

  constructor(private readonly options: StoreWriterOptions) {
    this.writer = new StoreWriter(options)
  }

  /** Loads the history into `agent`, then calls `start` with how the call goes on. */
  open(agent: Agent, start: (mode: ResumeMode) => void): void {
    this.incoming = []
    const loaded = (items: MicdropConversationItem[]) => {
      const system = agent.conversation[0]?.role === 'system' ? [agent.conversation[0]] : []
      if (items.length > 0) agent.conversation = [...system, ...items]
      start(items.length === 0 ? 'new' : isUnanswered(items) ? 'answer' : 'silent')
      const incoming = this.incoming ?? []
      this.incoming = undefined
      for (const frame of incoming) frame()
    }
    this.writer.load().then(
      (records) => loaded(replayRecords(records)),
      (error: unknown) => {
        // The call goes on without its history; writing would overwrite what the store holds.
        this.writer.stop()
        this.options.onError(error, 'load')
        loaded([])
      }
    )
  }

  /** The history is loading: what comes in is held (see `holdIncoming`). */
  get loading(): boolean {
    return this.incoming !== undefined
  }

  /** True when the frame must wait for the history (it is handled later, in order). */
  holdIncoming(handle: () => void): boolean {
    if (!this.incoming) return false
    this.incoming.push(handle)
    return true
  }

  /** Records what a frame about to be sent changes in the conversation (frames wait for it). */
  record(name: MicdropServerCommand, payload: unknown): void {
    if (name === 'Message') {
      this.gate.hold(this.writer.append({ type: 'item', item: payload as MicdropConversationItem }))
    } else if (name === 'CancelLastUserMessage') {
      this.gate.hold(this.writer.append({ type: 'cancel-last-user-message' }))
    }
  }

  /** Resolves once every record is stored (true), or at `deadline` (false). */
  flush(deadline: number): Promise<boolean> {
    return this.writer.flush(deadline)
  }

  /**
   * The call ended. Records not yet stored are still retried for a while. After a normal close
   * (1000: hang-up or end of call) the store may forget the conversation.
   */
  end(normal: boolean): void {
    const deadline = Date.now() + AFTER_END_RETRY_MS
    this.writer.abandonAt(deadline)
    if (!normal) return
    void this.writer.flush(deadline).then((stored) => {
      if (!stored) return
      this.writer
        .timed('end', undefined, () => this.options.store.end(this.options.conversationId))
        .catch((error: unknown) => {
          this.options.log('Store end failed:', error)
        })
    })
  }
}
