import type {
  MicdropConversation,
  MicdropConversationItem,
  MicdropConversationMessage,
  MicdropConversationToolCall,
} from '../conversation/types.js'
import { shouldSendTools } from '../tools/should-send-tools.js'
import type { Tool } from '../tools/Tool.js'
import { toolJsonSchema } from '../tools/tool-schema.js'
import { ConversationMirror } from './ConversationMirror.js'
import type { RealtimeInput } from './RealtimeInput.js'
import type { RealtimeModel } from './RealtimeModel.js'
import type { RealtimeResponse } from './RealtimeResponse.js'
import { RealtimeTurn } from './RealtimeTurn.js'
import type { RealtimeSessionConfig, RealtimeToolSpec } from './types.js'

/** What the session reads of its agent. */
export interface RealtimeSessionHost {
  readonly conversation: MicdropConversation
  readonly tools: Tool[]
}

/** A response asked for when the user's audio was committed, before the call answers. */
interface EarlyResponse {
  response: RealtimeResponse
  /** The input it answers: only the latest one's may be taken. */
  input: RealtimeInput
  /** The mirror's revision it saw: any change to the session's conversation since makes it stale. */
  revision: number
}

/**
 * The one realtime session a {@link RealtimeAgent} and its STT and TTS share: the model, the
 * mirror of the conversation, the answer in progress and the response asked for early.
 *
 * Internal: the agent, {@link RealtimeSTT} and {@link RealtimeTTS} are its only users.
 */
export class RealtimeSession {
  readonly mirror: ConversationMirror
  /** The agent's latest answer. */
  turn?: RealtimeTurn
  private early?: EarlyResponse
  /** The user's latest commit. */
  private lastInput?: RealtimeInput
  /** Commits transcribed with words, not yet linked to a user message. */
  private transcribed: RealtimeInput[] = []
  /** The model's session at the last sync. */
  private seen?: string
  private destroyed = false
  private readonly specs = new WeakMap<Tool, RealtimeToolSpec>()

  constructor(
    readonly model: RealtimeModel,
    private readonly host: RealtimeSessionHost,
    private readonly options: { answerEarly: boolean; log: (...message: unknown[]) => void }
  ) {
    this.mirror = new ConversationMirror(model)
  }

  /** The provider's name, in errors. */
  get provider(): string {
    return this.model.constructor.name
  }

  /**
   * Before the session is asked anything: it is configured (opened if needed), reseeded if a new
   * session replaced the last, and its conversation made openmic's. Returns whether the
   * conversation changed.
   */
  sync(): boolean {
    if (this.destroyed) return false
    this.model.configure(this.config())
    const session = this.model.session
    if (this.seen !== undefined && session !== this.seen) {
      this.options.log('A new realtime session: the conversation is created in it again')
      this.mirror.reset()
      this.transcribed = []
      this.early = undefined
    }
    this.seen = session
    return this.mirror.sync(this.host.conversation)
  }

  // ---- the user's audio ----

  /** The user started speaking: a response asked for their last words is dropped. */
  userStarted(): void {
    this.dropEarly()
  }

  /** The user's audio was committed: its item is kept while it may become a user message. */
  committed(input: RealtimeInput): void {
    this.lastInput = input
    // Its item belongs to this session: if a new one replaces it, the words are created there anew
    const session = this.model.session
    const current = () => this.model.session === session
    const pinned = () => !input.settled || (input.transcript ?? '').trim() !== ''
    input.whenCommitted((itemId) => {
      if (current()) this.mirror.hold(itemId, pinned)
    })
    this.startEarly(input)
    input.whenSettled(
      (text) => {
        if (text.trim() !== '' && current()) this.transcribed.push(input)
        else if (text.trim() === '' && this.early?.input === input) this.dropEarly() // noise
      },
      () => {
        if (this.early?.input === input) this.dropEarly()
      }
    )
  }

  // ---- answers ----

  /** A new answer of the agent (the last one is over). */
  newTurn(): RealtimeTurn {
    this.turn?.end()
    this.turn = new RealtimeTurn()
    return this.turn
  }

  /** The agent's answer in progress, if no TTS plays it yet: the TTS takes it. */
  takeTurn(): RealtimeTurn | undefined {
    const turn = this.turn
    if (!turn?.active || turn.voiced) return undefined
    turn.voiced = true
    return turn
  }

  /**
   * The response of a model call of `turn`: the one asked for early, when it answers the
   * conversation as it is now, else a new one.
   */
  respond(turn: RealtimeTurn, step: number, attempt: number): RealtimeResponse {
    const changed = this.sync()
    let response = step === 0 && attempt === 0 && !changed ? this.takeEarly() : undefined
    if (!response) {
      this.dropEarly()
      const { conversation, tools } = this.host
      response = this.model.respond({ tools: shouldSendTools(conversation, tools) })
      this.track(response)
    }
    turn.add(response)
    return response
  }

  // ---- openmic's conversation changed ----

  /** A message was added: linked to the session items it stands for, if there are. */
  messageAdded(item: MicdropConversationMessage, saving?: RealtimeResponse): void {
    if (item.role === 'user') {
      this.linkTranscribed(item)
      return
    }
    if (item.role !== 'assistant' || !this.turn) return
    if (saving) {
      this.mirror.link(item, this.unlinked(this.turn.spokenItems(saving)))
      return
    }
    // Not the agent's own save: once the answer is over, what the call kept of it that the agent
    // never saved (it was cut, or failed, first): what was heard of its unsaved speech
    if (this.turn.active) return
    const spoken = this.turn.responses.flatMap((response) => this.turn!.spokenItems(response))
    this.mirror.link(item, this.unlinked(spoken))
    this.cutIfInterrupted(item)
  }

  /** A tool call of the model was recorded: it stands for the function call item of its response. */
  toolCalled(item: MicdropConversationToolCall): void {
    for (const response of this.turn?.responses ?? []) {
      for (const output of response.outputs) {
        if (output.type === 'function-call' && output.callId === item.toolCallId) {
          this.mirror.link(item, [{ id: output.itemId }])
          return
        }
      }
    }
  }

  /**
   * `item` was replaced by `updated`: an answer cut to what was heard is truncated where the user
   * stopped hearing it; a user message that took more words takes their audio too; any other
   * change is made again from the text.
   */
  messageUpdated(item: MicdropConversationItem, updated: MicdropConversationItem): void {
    this.mirror.replaced(item, updated)
    if (this.cutIfInterrupted(updated) || sameContent(item, updated)) return
    if (updated.role === 'user' && this.linkTranscribed(updated)) return
    this.mirror.forget(updated)
  }

  destroy(): void {
    this.destroyed = true
    this.dropEarly()
    this.turn?.end()
    this.model.destroy()
  }

  // ---- internals ----

  private config(): RealtimeSessionConfig {
    const { conversation, tools } = this.host
    const system = conversation[0]?.role === 'system' ? conversation[0].content : ''
    return { instructions: system, tools: tools.map((tool) => this.toolSpec(tool)) }
  }

  /** A tool as the session offers it; converted once per tool (every sync reads it). */
  private toolSpec(tool: Tool): RealtimeToolSpec {
    let spec = this.specs.get(tool)
    if (!spec || spec.name !== tool.name || spec.description !== tool.description) {
      spec = {
        name: tool.name,
        description: tool.description,
        parameters: toolJsonSchema(tool).schema,
      }
      this.specs.set(tool, spec)
    }
    return spec
  }

  /** Asks for the answer to the user's words as soon as their audio is in (one hop, not two). */
  private startEarly(input: RealtimeInput) {
    this.dropEarly()
    if (!this.options.answerEarly || this.destroyed) return
    this.sync()
    // The user spoke: the conversation is not the system prompt alone, the tools are offered
    const response = this.model.respond({ tools: this.host.tools.length > 0 })
    this.track(response)
    this.early = { response, input, revision: this.mirror.revision }
  }

  /** The early response, if it answers the conversation as it is; a stale one is cancelled. */
  private takeEarly(): RealtimeResponse | undefined {
    const early = this.early
    this.early = undefined
    if (!early) return undefined
    const { response } = early
    // One that failed is taken too: its failure is the answer's, retried or not by core's rules
    const fresh =
      early.input === this.lastInput &&
      early.revision === this.mirror.revision &&
      !response.cancelled
    if (fresh) return response
    response.cancel()
    return undefined
  }

  private dropEarly() {
    const early = this.early
    this.early = undefined
    early?.response.cancel()
  }

  /** A response's items are kept while it is in use, then only if openmic's conversation has them. */
  private track(response: RealtimeResponse) {
    if (!response.inConversation) return
    const inUse = () =>
      this.early?.response === response ||
      (this.turn?.active === true && this.turn.responses.includes(response))
    response.follow((output) => {
      if (output.type === 'item') this.mirror.hold(output.itemId, inUse)
    })
  }

  /** Links a user message to the transcribed commits whose words it holds; true if any. */
  private linkTranscribed(item: MicdropConversationItem): boolean {
    const content = normalize(item.content ?? '')
    const words = this.transcribed.filter((input) => content.includes(normalize(input.transcript!)))
    if (words.length === 0) return false
    this.transcribed = this.transcribed.filter((input) => !words.includes(input))
    const ids = words.flatMap((input) => (input.itemId ? [{ id: input.itemId }] : []))
    this.mirror.link(item, ids)
    return true
  }

  /** An assistant message flagged interrupted, with the `heardMs` of its answer: truncated there. */
  private cutIfInterrupted(item: MicdropConversationItem): boolean {
    if (item.role !== 'assistant') return false
    const heardMs = item.metadata?.heardMs
    if (!item.metadata?.interrupted || typeof heardMs !== 'number') return false
    this.mirror.cut(item, heardMs)
    return true
  }

  private unlinked<T extends { id: string }>(items: T[]): T[] {
    return items.filter((item) => !this.mirror.isLinked(item.id))
  }
}

function normalize(text: string): string {
  return text.trim().replace(/\s+/g, ' ')
}

function sameContent(a: MicdropConversationItem, b: MicdropConversationItem): boolean {
  if (a.role === 'tool_call' && b.role === 'tool_call') return a.parameters === b.parameters
  if (a.role === 'tool_result' && b.role === 'tool_result') return a.output === b.output
  return a.role === b.role && a.content === b.content
}
