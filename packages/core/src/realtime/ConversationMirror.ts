import type { MicdropConversation, MicdropConversationItem } from '../conversation/types.js'
import type { RealtimeModel } from './RealtimeModel.js'

/** An item of the session's conversation that stands for an item of openmic's. */
export interface SessionItem {
  id: string
  /**
   * For an item the model spoke: where its audio sits in its answer's audio (the answer's first
   * audio is 0 ms), and how long it is, in ms.
   */
  audio?: { startMs: number; ms: number }
}

/**
 * Keeps the realtime session's conversation equal to openmic's (the agent's `conversation`, what
 * the store keeps and a resumed call loads): every openmic item is linked to the session items
 * that stand for it, and before each commit or response {@link ConversationMirror.sync} creates
 * what the session lacks (the history of a resumed call, a greeting, tool results, text the app
 * added) and deletes what openmic no longer has (noise, an answer nobody heard, a removed
 * message). Session items not linked yet (the user's audio awaiting its transcript, a response
 * in use) are held while they may still be linked.
 */
export class ConversationMirror {
  /** Bumped by every change made to the session's conversation. */
  revision = 0
  private readonly links = new Map<MicdropConversationItem, SessionItem[]>()
  /** Session items not linked: kept while their `pinned()` holds, deleted by a sync after. */
  private readonly loose = new Map<string, () => boolean>()
  private created = 0

  constructor(private readonly model: RealtimeModel) {}

  /** A new session replaced the last one: it holds nothing, everything is created again. */
  reset(): void {
    this.links.clear()
    this.loose.clear()
    this.revision++
  }

  /** A session item openmic has no item for yet: kept while `pinned()` holds. */
  hold(id: string, pinned: () => boolean): void {
    if (this.isLinked(id)) return
    this.loose.set(id, pinned)
  }

  /** `item` stands for these session items (added to those it had). */
  link(item: MicdropConversationItem, sessionItems: SessionItem[]): void {
    if (sessionItems.length === 0) return
    for (const { id } of sessionItems) this.loose.delete(id)
    this.links.set(item, [...(this.links.get(item) ?? []), ...sessionItems])
  }

  /** The session items `item` stands for. */
  linksOf(item: MicdropConversationItem): readonly SessionItem[] {
    return this.links.get(item) ?? []
  }

  /** Whether a session item stands for an openmic item. */
  isLinked(id: string): boolean {
    for (const items of this.links.values()) if (items.some((item) => item.id === id)) return true
    return false
  }

  /** `item` was replaced by `updated` (an edit keeps its place): the links follow. */
  replaced(item: MicdropConversationItem, updated: MicdropConversationItem): void {
    const linked = this.links.get(item)
    if (!linked) return
    this.links.delete(item)
    this.links.set(updated, linked)
  }

  /**
   * `item` was cut to what the user heard of it, `heardMs` into its answer's audio: each spoken
   * item is truncated there (deleted if nothing of it was heard), so the model's memory holds what
   * the user heard. Items that are not audio are created again, from the cut text, at the next sync.
   */
  cut(item: MicdropConversationItem, heardMs: number): void {
    const linked = this.links.get(item)
    if (!linked) return
    const kept: SessionItem[] = []
    for (const sessionItem of linked) {
      const { audio } = sessionItem
      const endMs = audio ? Math.floor(heardMs - audio.startMs) : 0
      if (audio && endMs >= audio.ms) {
        kept.push(sessionItem)
        continue
      }
      this.revision++
      if (!audio || endMs <= 0) {
        this.model.deleteItem(sessionItem.id)
        continue
      }
      this.model.truncateItem(sessionItem.id, endMs)
      kept.push({ id: sessionItem.id, audio: { startMs: audio.startMs, ms: endMs } })
    }
    // Nothing spoken left: the cut text, if any, is created at the next sync
    if (kept.length > 0) this.links.set(item, kept)
    else this.links.delete(item)
  }

  /** `item` changed in a way its session items cannot follow: it is created again at the next sync. */
  forget(item: MicdropConversationItem): void {
    const linked = this.links.get(item)
    if (!linked) return
    for (const { id } of linked) this.model.deleteItem(id)
    this.links.delete(item)
    this.revision++
  }

  /**
   * Makes the session's conversation openmic's `conversation` (its first system message is the
   * session's instructions, not an item): deletes session items whose openmic item is gone and
   * loose ones no longer pinned, then creates the items the session lacks, each in its place.
   * Returns whether anything changed.
   */
  sync(conversation: MicdropConversation): boolean {
    let changed = false
    const present = new Set(conversation)
    for (const [item, linked] of [...this.links]) {
      if (present.has(item)) continue
      for (const { id } of linked) this.model.deleteItem(id)
      this.links.delete(item)
      changed = true
    }
    for (const [id, pinned] of [...this.loose]) {
      if (pinned()) continue
      this.model.deleteItem(id)
      this.loose.delete(id)
      changed = true
    }
    const sessionEmpty = this.links.size === 0 && this.loose.size === 0
    let previous: string | undefined
    conversation.forEach((item, index) => {
      if (index === 0 && item.role === 'system') return
      const linked = this.links.get(item)
      if (linked) {
        previous = linked.at(-1)!.id
        return
      }
      if (!hasContent(item)) return
      const id = `openmic_${++this.created}`
      // Nothing of openmic's comes before it: first, unless the session is still empty
      const after = previous ?? (sessionEmpty ? undefined : null)
      this.model.createItem(item, { id, after })
      this.links.set(item, [{ id }])
      previous = id
      changed = true
    })
    if (changed) this.revision++
    return changed
  }
}

/** Messages without text are never added to openmic's conversation; tool items always count. */
function hasContent(item: MicdropConversationItem): boolean {
  return item.role === 'tool_call' || item.role === 'tool_result' || item.content.trim() !== ''
}
