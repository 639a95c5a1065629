import type { MicdropConversationItem } from '../conversation/types.js'
import { ProviderError } from '../retry/ProviderError.js'
import { errorMessage } from '../retry/errors.js'
import { RealtimeInput } from './RealtimeInput.js'
import { RealtimeModel } from './RealtimeModel.js'
import { RealtimeResponse } from './RealtimeResponse.js'
import type { RealtimeRespondOptions, RealtimeSessionConfig } from './types.js'

export interface FallbackRealtimeOptions {
  /** Build the models to use, in order of preference. Each is built when first needed. */
  factories: Array<() => RealtimeModel>
  /**
   * Switch to the next model when a response gave no output this long after it was asked
   * (default 5 000 ms; `Infinity`: never).
   */
  firstOutputTimeoutMs?: number
}

/** A response of ours and the child's that serves it. */
interface Relayed {
  model: RealtimeModel
  child: RealtimeResponse
  timer?: NodeJS.Timeout
  /** The child will not serve it: the next model does, or it fails. */
  giveUp(error: unknown): void
}

/**
 * A realtime model that uses the first model and moves to the next when it fails: its session is
 * refused or dropped (`Failed`), or a response fails or gives no output within
 * `firstOutputTimeoutMs` before any output. The next model then serves every call, and the
 * conversation is not lost: its `session` changes, so the {@link RealtimeAgent} seeds the new
 * session with openmic's conversation before it asks anything, and the failed response ends
 * `failed` with a retryable error so that the agent asks the new model at once. A `say()` that
 * failed before any audio is said again by the next model. `Failed` is emitted only when the last
 * model fails.
 */
export class FallbackRealtime extends RealtimeModel {
  private readonly factories: Array<() => RealtimeModel>
  private readonly firstOutputTimeoutMs: number
  private index = 0
  private model: RealtimeModel
  private readonly relayed = new Map<RealtimeResponse, Relayed>()
  /** Commits not settled yet, with the model they went to. */
  private readonly inputs = new Map<RealtimeInput, RealtimeModel>()
  private config?: RealtimeSessionConfig

  constructor(options: FallbackRealtimeOptions) {
    super()
    if (options.factories.length === 0)
      throw new Error('FallbackRealtime needs at least one factory')
    this.factories = options.factories
    this.firstOutputTimeoutMs = options.firstOutputTimeoutMs ?? 5000
    this.model = this.build()
  }

  /** The model in use. */
  get current(): RealtimeModel {
    return this.model
  }

  /** The provider of the model in use. */
  override get providerName(): string {
    return this.model.providerName
  }

  get session(): string {
    return `${this.index}:${this.model.session}`
  }

  configure(config: RealtimeSessionConfig): void {
    this.config = config
    this.model.configure(config)
  }

  appendAudio(audio: Buffer): void {
    this.model.appendAudio(audio)
  }

  commitAudio(): RealtimeInput {
    const input = new RealtimeInput()
    const model = this.model
    const child = model.commitAudio()
    this.inputs.set(input, model)
    input.whenSettled(
      () => this.inputs.delete(input),
      () => this.inputs.delete(input)
    )
    child.whenCommitted((itemId) => input.committed(itemId))
    child.whenSettled(
      (transcript) => input.transcribed(transcript),
      (error) => input.fail(error)
    )
    return input
  }

  clearAudio(): void {
    this.model.clearAudio()
  }

  respond(options?: RealtimeRespondOptions): RealtimeResponse {
    const response = new RealtimeResponse(this)
    this.relay(response, (model) => model.respond(options), false)
    return response
  }

  say(text: string): RealtimeResponse {
    const response = new RealtimeResponse(this, false)
    this.relay(response, (model) => model.say(text), true)
    return response
  }

  cancelResponse(response: RealtimeResponse): void {
    const relayed = this.relayed.get(response)
    if (!relayed) return
    clearTimeout(relayed.timer)
    relayed.child.cancel()
  }

  createItem(item: MicdropConversationItem, placement: { id: string; after?: string | null }) {
    this.model.createItem(item, placement)
  }

  deleteItem(id: string): void {
    this.model.deleteItem(id)
  }

  truncateItem(id: string, audioEndMs: number): void {
    this.model.truncateItem(id, audioEndMs)
  }

  override destroy(): void {
    for (const { timer } of this.relayed.values()) clearTimeout(timer)
    this.relayed.clear()
    for (const model of new Set([this.model, ...this.inputs.values()])) model.destroy()
    this.inputs.clear()
    super.destroy()
  }

  private build(): RealtimeModel {
    const model = this.factories[this.index]!()
    if (this.logger && !model.logger) model.logger = this.logger
    model.on('Failed', (error) => {
      if (model !== this.model) return
      if (!this.switchAfter(error)) this.emit('Failed', error)
    })
    return model
  }

  /**
   * A model left behind is destroyed once the user's words committed to it are transcribed (its
   * session may well be alive: one of its responses failed); the next model is seeded with them.
   */
  private retire(model: RealtimeModel) {
    const pending = [...this.inputs].filter(([, on]) => on === model).map(([input]) => input)
    if (pending.length === 0) return model.destroy()
    let left = pending.length
    const settled = () => {
      if (--left === 0) model.destroy()
    }
    for (const input of pending) input.whenSettled(settled, settled)
  }

  /**
   * Serves `response` with a child response of the model in use. A child that fails (or stays
   * silent) before any output makes the chain move on; `again`: the new model is asked the same
   * (a text said word for word, which needs no conversation), else `response` fails, retryable.
   */
  private relay(
    response: RealtimeResponse,
    ask: (model: RealtimeModel) => RealtimeResponse,
    again: boolean
  ) {
    const model = this.model
    const child = ask(model)
    let output = false
    const relayed: Relayed = {
      model,
      child,
      giveUp: (error) => {
        this.relayed.delete(response)
        clearTimeout(relayed.timer)
        const switched = model === this.model && this.switchAfter(error)
        if (!switched && model === this.model) {
          return response.finish({ status: 'failed', error })
        }
        if (again && !response.cancelled) return this.relay(response, ask, again)
        const message = `switched to the next model after: ${errorMessage(error)}`
        const retry = new ProviderError('FallbackRealtime', message, {
          retryable: true,
          cause: error,
        })
        response.finish({ status: 'failed', error: retry })
      },
    }
    this.relayed.set(response, relayed)
    const timeoutMs = this.firstOutputTimeoutMs
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      relayed.timer = setTimeout(() => {
        child.cancel()
        relayed.giveUp(new ProviderError('FallbackRealtime', `no output within ${timeoutMs} ms`))
      }, timeoutMs)
    }
    child.follow(
      (part) => {
        if (this.relayed.get(response) !== relayed) return
        output = true
        clearTimeout(relayed.timer)
        response.output(part)
      },
      (end) => {
        if (this.relayed.get(response) !== relayed) return
        if (end.status === 'failed' && !output) return relayed.giveUp(end.error)
        this.relayed.delete(response)
        clearTimeout(relayed.timer)
        response.finish(end)
      }
    )
  }

  /** Moves to the next model after `error`, if there is one; the new session gets the config. */
  private switchAfter(error: unknown): boolean {
    if (this.index + 1 >= this.factories.length) return false
    this.log(`Realtime model ${this.index} failed, switching:`, error)
    const previous = this.model
    this.index++
    this.model = this.build()
    if (this.config) this.model.configure(this.config)
    // What the previous model was still answering is answered by the new one, or fails
    for (const relayed of [...this.relayed.values()]) {
      if (relayed.model === previous) relayed.giveUp(error)
    }
    this.retire(previous)
    return true
  }
}
