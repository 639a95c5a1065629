import type { PassThrough } from 'node:stream'
import { Agent } from '../agent/Agent.js'
import { AGENT_EVENT_NAMES } from '../agent/types.js'
import type { MicdropAnswerMetadata } from '../conversation/types.js'
import { AllAgentsFailedError, FirstTokenTimeoutError } from '../retry/errors.js'

export interface FallbackAgentOptions {
  /** Build the agents to use, in order of preference. Each is built when first needed. */
  factories: Array<() => Agent>
  /**
   * Switch to the next agent when the current one has sent no text within this time
   * (default 5 000 ms; `Infinity`: never). A tool call counts as a reply: tools never run twice.
   */
  firstChunkTimeoutMs?: number
}

type Outcome = { kind: 'answered' } | { kind: 'cancelled' } | { kind: 'failed'; error: unknown }

/** A child's `Failed` is not forwarded: the fallback decides whether the turn failed. */
const FORWARDED_EVENTS = AGENT_EVENT_NAMES.filter((name) => name !== 'Failed')

/**
 * Answers with the first agent and falls back to the next when it fails before saying anything:
 * it emits `Failed`, throws, or sends no text within `firstChunkTimeoutMs`. The next agent answers
 * the same turn, with the same conversation and tools, and stays in use for the following turns.
 * Once text was streamed, an answer is never switched mid-way. `Failed` is emitted only when every
 * agent failed the turn.
 */
export class FallbackAgent extends Agent {
  private readonly factories: Array<() => Agent>
  private readonly firstChunkTimeoutMs: number
  private index = 0
  private active: Agent

  constructor(options: FallbackAgentOptions) {
    if (options.factories.length === 0) throw new Error('FallbackAgent needs at least one factory')
    const first = options.factories[0]!()
    super({
      systemPrompt: first.conversation[0]?.role === 'system' ? first.conversation[0].content : '',
    })
    this.factories = options.factories
    this.firstChunkTimeoutMs = options.firstChunkTimeoutMs ?? 5000
    this.conversation = first.conversation
    this.tools = first.tools
    this.active = first
    this.forwardEvents(first)
  }

  /** The agent currently answering. */
  get current(): Agent {
    return this.active
  }

  /** The provider of the agent in use (it changes when one fails). */
  override get providerName(): string {
    return this.active.providerName
  }

  override extract(message: string): { message: string; metadata?: MicdropAnswerMetadata } {
    return this.active.extract(message)
  }

  protected async generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    const errors: unknown[] = []
    for (let tried = 0; tried < this.factories.length; tried++) {
      const outcome = await this.answerWith(this.active, stream, signal)
      if (outcome.kind !== 'failed') return
      errors.push(outcome.error)
      this.log(`Agent ${this.index} failed before answering, switching:`, outcome.error)
      if (tried + 1 < this.factories.length) this.switchToNext(outcome.error)
    }
    throw new AllAgentsFailedError(errors)
  }

  cancel(): void {
    this.active.cancel()
    this.abortAnswer()
  }

  override destroy(): void {
    super.destroy()
    this.active.destroy()
  }

  /** Streams one child's answer into ours and tells how it ended. */
  private answerWith(agent: Agent, stream: PassThrough, signal: AbortSignal): Promise<Outcome> {
    if (this.logger && !agent.logger) agent.logger = this.logger
    return new Promise((resolve) => {
      let committed = false
      let failure: unknown
      const childStream = agent.answer()
      const timeoutMs = this.firstChunkTimeoutMs
      // setTimeout would turn Infinity into 1 ms: Infinity (or <= 0) means no deadline at all.
      const firstChunkTimer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              failure = new FirstTokenTimeoutError(timeoutMs)
              agent.cancel()
            }, timeoutMs)
          : undefined
      const commit = () => {
        if (committed) return
        committed = true
        clearTimeout(firstChunkTimer)
      }
      const onFailed = (error: unknown) => {
        failure = error
      }
      const onAbort = () => agent.cancel()
      const finish = () => {
        clearTimeout(firstChunkTimer)
        agent.off('Failed', onFailed)
        agent.off('ToolMessage', commit)
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted) return resolve({ kind: 'cancelled' })
        if (failure !== undefined && !committed) return resolve({ kind: 'failed', error: failure })
        if (failure !== undefined) this.log('Agent failed after it started answering:', failure)
        resolve({ kind: 'answered' })
      }
      agent.on('Failed', onFailed)
      agent.on('ToolMessage', commit)
      signal.addEventListener('abort', onAbort, { once: true })
      childStream.on('data', (chunk: Buffer) => {
        commit()
        stream.write(chunk)
      })
      childStream.once('end', finish)
      childStream.once('error', (error) => {
        failure ??= error
        finish()
      })
    })
  }

  private switchToNext(error: unknown) {
    const previous = this.active
    this.index = (this.index + 1) % this.factories.length
    const next = this.factories[this.index]!()
    next.conversation = this.conversation
    next.tools = this.tools
    this.active = next
    this.forwardEvents(next)
    previous.destroy()
    this.report('Fallback', { from: previous.providerName, to: next.providerName, error })
  }

  private forwardEvents(agent: Agent) {
    for (const event of FORWARDED_EVENTS) {
      agent.on(event, (...args: unknown[]) =>
        (this.emit as (...a: unknown[]) => boolean)(event, ...args)
      )
    }
  }
}
