import { EventEmitter } from 'eventemitter3'
import type { PassThrough, Readable } from 'node:stream'
import type { z } from 'zod'
import type {
  MicdropAnswerMetadata,
  MicdropConversation,
  MicdropConversationItem,
  MicdropConversationMessage,
  MicdropConversationToolCall,
  MicdropConversationToolItem,
  MicdropConversationToolResult,
} from '../conversation/types.js'
import { extractValue } from '../extract/extract-value.js'
import type { ExtractTagOptions } from '../extract/types.js'
import type { Logger } from '../logger/Logger.js'
import { runModelAnswer } from '../model/run-model-answer.js'
import {
  DEFAULT_MODEL_ANSWER_LIMITS,
  type ModelAnswerLimits,
  type ModelCall,
} from '../model/types.js'
import { createDefaultTools } from '../tools/default-tools.js'
import { defaultProviderName } from '../telemetry/provider-name.js'
import { runTool } from '../tools/run-tool.js'
import type { Tool } from '../tools/Tool.js'
import { AnswerStream } from './AnswerStream.js'
import type { AgentEvents, AgentOptions } from './types.js'
import { eventsGoToCall } from '../events/call-sink.js'

/** One call of `answer()`: its stream and what cancels it. */
interface AnswerRun {
  readonly stream: AnswerStream
  readonly abort: AbortController
}

/**
 * The LLM side of a call: holds the conversation and tools, and streams answers.
 *
 * Subclasses implement `generateAnswer(stream, signal)` (write text to `stream`, stop when `signal`
 * aborts, record the answer with `addAssistantMessage`). Provider agents call
 * {@link Agent.streamModelAnswer} instead of writing their own loop.
 *
 * openmic guarantees, whatever the subclass does: `answer()` always ends its stream; an error in
 * `onBeforeAnswer` or `generateAnswer` becomes a `Failed` event, never an unhandled rejection; a new
 * `answer()` ends the previous one's stream at once, aborts its signal and drops anything written to
 * it afterwards. `cancel()` is the subclass's own: the provider agents abort the answer with
 * {@link Agent.abortAnswer}.
 */
export abstract class Agent<
  Options extends AgentOptions = AgentOptions,
> extends EventEmitter<AgentEvents> {
  /** Attach one to log what the agent does. */
  public logger?: Logger
  /** The whole history, starting with the system message. */
  public conversation: MicdropConversation
  /** The tools the model can call: the default tools enabled in the options, then added ones. */
  public tools: Tool[]

  /**
   * Who provides the model, for tracing (`gen_ai.provider.name`): each provider package says its
   * own, as OpenTelemetry's GenAI conventions name it (`openai`, `mistral_ai`...); by default the
   * class name without `Agent`, in snake case.
   */
  get providerName(): string {
    return defaultProviderName(this, 'Agent')
  }

  /** Incremented by each `answer()`; an answer whose number is no longer current was superseded. */
  protected answerCount = 0
  /** True while an answer is being generated. */
  protected answering = false

  private currentRun?: AnswerRun

  constructor(protected options: Options) {
    super()
    this.conversation = [{ role: 'system', content: options.systemPrompt }]
    this.tools = this.getDefaultTools()
  }

  /**
   * Generates one answer: writes its text to `stream` as it comes, then records it with
   * `addAssistantMessage`. `signal` aborts when the answer is cancelled; the stream is ended for you.
   */
  protected abstract generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void>

  /**
   * Stops the current answer. Agents that pass `generateAnswer`'s signal to their requests
   * implement it with {@link Agent.abortAnswer}; an agent written as in Micdrop's docs stops its
   * own way (its stream then ends when its `generateAnswer` returns).
   */
  abstract cancel(): void

  /**
   * Answers the conversation as it is now. Returns a stream of UTF-8 text chunks that always ends:
   * after the answer, after `cancel()`, or after a failure (then `Failed` is emitted).
   */
  answer(): Readable {
    this.cancelRun(this.currentRun)
    this.answerCount++
    const run: AnswerRun = { stream: new AnswerStream(), abort: new AbortController() }
    this.currentRun = run
    this.answering = true
    this.log('Answering')
    void this.runAnswer(run)
    return run.stream
  }

  addMessage(
    role: 'user' | 'assistant' | 'system',
    text: string,
    metadata?: MicdropAnswerMetadata
  ) {
    if (text.trim() === '') {
      this.log(`Ignoring empty ${role} message`)
      return
    }
    const message: MicdropConversationMessage = { role, content: text }
    if (metadata !== undefined) message.metadata = metadata
    this.conversation.push(message)
    this.log(`${role}: ${text}`)
    this.emit('Message', message)
  }

  addUserMessage(text: string, metadata?: MicdropAnswerMetadata) {
    this.addMessage('user', text, metadata)
  }

  addAssistantMessage(text: string, metadata?: MicdropAnswerMetadata) {
    this.addMessage('assistant', text, metadata)
  }

  /** Adds a `tool_call` or `tool_result` item and emits `ToolMessage`. */
  addToolMessage(message: MicdropConversationToolCall | MicdropConversationToolResult) {
    this.conversation.push(message)
    this.log(
      `${message.role} ${message.toolName}:`,
      'parameters' in message ? message.parameters : message.output
    )
    this.emit('ToolMessage', message as MicdropConversationToolItem)
  }

  /**
   * Replaces `item` in the conversation by a copy with `changes` applied, and returns the copy
   * (`undefined` when `item` is not in the conversation). No event is emitted. The server calls it
   * to keep the conversation to what the user heard (an answer cut by a barge-in) and said (a
   * transcript that came in pieces); override it, calling `super`, to mirror the change in state the
   * provider keeps.
   */
  updateMessage<Item extends MicdropConversationItem>(
    item: Item,
    changes: Partial<Item>
  ): Item | undefined {
    const index = this.conversation.indexOf(item)
    if (index === -1) return undefined
    const updated = { ...item, ...changes }
    this.conversation[index] = updated
    this.log(`Updated ${item.role}:`, updated.content ?? '')
    return updated
  }

  /**
   * Takes `item` out of the conversation; false when it is not in it. No event is emitted. The
   * server calls it for an answer the user heard nothing of; override it, calling `super`, as
   * {@link Agent.updateMessage}.
   */
  removeMessage(item: MicdropConversationItem): boolean {
    const index = this.conversation.indexOf(item)
    if (index === -1) return false
    this.conversation.splice(index, 1)
    this.log(`Removed ${item.role}:`, item.content ?? '')
    return true
  }

  addTool<Schema extends z.ZodObject>(tool: Tool<Schema>) {
    this.removeTool(tool.name)
    this.tools.push(tool as unknown as Tool)
  }

  removeTool(name: string) {
    const index = this.tools.findIndex((tool) => tool.name === name)
    if (index !== -1) this.tools.splice(index, 1)
  }

  getTool(name: string): Tool | undefined {
    return this.tools.find((tool) => tool.name === name)
  }

  /**
   * Splits an answer into the message to keep and the value configured with the `extract` option.
   * Calls the option's `callback` with the value; returns it in `metadata.extracted` when
   * `saveInMetadata` is set. Called for you on every answer; never throws.
   */
  extract(message: string): { message: string; metadata?: MicdropAnswerMetadata } {
    const options = this.getExtractOptions()
    if (!options) return { message }
    const result = extractValue(message, options)
    if (!result.found) return { message }
    if (result.problem) this.warn(`extract: ${result.problem}`)
    if (result.value === undefined) return { message: result.message }
    try {
      options.callback?.(result.value as string)
    } catch (error) {
      this.warn('extract: the callback threw:', error)
    }
    if (!options.saveInMetadata) return { message: result.message }
    return { message: result.message, metadata: { extracted: result.value } }
  }

  /** Removes all listeners and cancels the current answer. */
  destroy() {
    this.log('Destroyed')
    this.removeAllListeners()
    this.cancel()
  }

  protected endCall() {
    this.log('End call')
    this.emit('EndCall')
  }

  /** Removes the last user message, if any, and emits `CancelLastUserMessage`. */
  protected cancelLastUserMessage() {
    const index = this.conversation.findLastIndex((item) => item.role === 'user')
    if (index !== -1) this.conversation.splice(index, 1)
    this.log('Cancelled last user message')
    this.emit('CancelLastUserMessage')
  }

  protected skipAnswer() {
    this.log('Skip answer')
    this.emit('SkipAnswer')
  }

  /** The tools enabled by `autoEndCall`, `autoSemanticTurn` and `autoIgnoreUserNoise`. */
  protected getDefaultTools(): Tool[] {
    return createDefaultTools(this.options)
  }

  /**
   * Runs a tool call from the model. Records the `tool_call` item, validates the JSON arguments with
   * the tool's schema, runs the tool, records the `tool_result` (`{"error": ...}` when the tool is
   * unknown, the arguments are invalid or the tool throws) and emits `ToolCall` for `emitOutput`
   * tools. Never throws.
   */
  protected async executeTool(
    toolCall: MicdropConversationToolCall
  ): Promise<{ output: any; skipAnswer?: boolean }> {
    this.addToolMessage(toolCall)
    const tool = this.getTool(toolCall.toolName)
    const startAt = performance.now()
    const result = await runTool(tool, toolCall, this)
    this.report('ToolCallEnd', {
      name: toolCall.toolName,
      toolCallId: toolCall.toolCallId,
      startAt,
      endAt: performance.now(),
      ...(result.error !== undefined && { error: result.error }),
    })
    if (result.error) this.log(`Tool ${toolCall.toolName} failed: ${result.error}`)
    this.addToolMessage({
      role: 'tool_result',
      toolCallId: toolCall.toolCallId,
      toolName: toolCall.toolName,
      output: result.encodedOutput,
    })
    if (tool?.emitOutput && !result.error) {
      this.emit('ToolCall', { name: tool.name, parameters: result.input, output: result.output })
    }
    return { output: result.output, skipAnswer: result.error ? false : tool?.skipAnswer }
  }

  /** The extraction as tags: JSON mode becomes `{` ... `}` (with `json: true` kept). */
  protected getExtractOptions(): (ExtractTagOptions & { json?: boolean }) | undefined {
    const extract = this.options.extract
    if (!extract) return undefined
    if ('json' in extract && extract.json) return { ...extract, startTag: '{', endTag: '}' }
    if ('startTag' in extract && extract.startTag && extract.endTag) return extract
    return undefined
  }

  protected log(...message: any[]) {
    this.logger?.log(...message)
  }

  /**
   * Runs the shared provider flow for one answer: the step loop, streaming through the answer
   * writer (extraction tag held back), tool calls, retries before the first token, first-token
   * timeout and cancellation. Providers only turn their wire format into {@link ModelCall} parts.
   */
  protected streamModelAnswer(
    stream: PassThrough,
    signal: AbortSignal,
    call: ModelCall,
    limits: ModelAnswerLimits = {}
  ): Promise<void> {
    return runModelAnswer({
      stream,
      signal,
      call,
      startTag: this.getExtractOptions()?.startTag,
      limits: {
        maxSteps: limits.maxSteps ?? DEFAULT_MODEL_ANSWER_LIMITS.maxSteps,
        maxRetry: limits.maxRetry ?? DEFAULT_MODEL_ANSWER_LIMITS.maxRetry,
        firstTokenTimeoutMs:
          limits.firstTokenTimeoutMs ?? DEFAULT_MODEL_ANSWER_LIMITS.firstTokenTimeoutMs,
      },
      executeTool: (toolCall) => this.executeTool(toolCall),
      saveAnswer: (text, metadata) => this.saveAnswer(text, metadata),
      log: (...message) => this.log(...message),
      reportModelCall: (report) =>
        this.report('ModelCallEnd', { ...report, provider: this.providerName }),
    })
  }

  /**
   * Emits a report event (`ModelCallEnd`, `ToolCallEnd`, `Fallback`): a listener that throws is
   * logged, and never breaks the answer it reports on.
   */
  protected report<E extends 'ModelCallEnd' | 'ToolCallEnd' | 'Fallback'>(
    event: E,
    ...args: AgentEvents[E]
  ): void {
    try {
      ;(this.emit as (event: E, ...args: unknown[]) => boolean)(event, ...args)
    } catch (error) {
      this.warn(`A ${event} listener threw:`, error)
    }
  }

  /** Records an answer: extraction applied, `metadata` merged with the extracted value. */
  protected saveAnswer(text: string, metadata?: MicdropAnswerMetadata) {
    const extracted = this.extract(text)
    const merged =
      metadata || extracted.metadata ? { ...metadata, ...extracted.metadata } : undefined
    this.addAssistantMessage(extracted.message, merged)
  }

  /**
   * Aborts the current answer's signal (and so a request made with it) and ends its stream at once;
   * whatever is written to it afterwards is dropped. What provider agents' `cancel()` does.
   */
  protected abortAnswer(): void {
    if (!this.currentRun) return
    this.log('Cancel')
    this.cancelRun(this.currentRun)
  }

  /** Logs through the logger, or warns on the console when none is attached and it would be lost. */
  protected warn(...message: unknown[]) {
    if (this.logger) this.logger.log(...message)
    else console.warn(`[openmic ${this.constructor.name}]`, ...message)
  }

  private async runAnswer(run: AnswerRun): Promise<void> {
    const { stream, abort } = run
    try {
      // Without a hook, generation starts within answer(): the request leaves at once.
      const hook = this.options.onBeforeAnswer
      const skip = hook ? await hook.call(this as unknown as Agent, stream) : undefined
      if (skip === true) {
        this.log('onBeforeAnswer skipped the answer')
      } else if (!abort.signal.aborted) {
        await this.generateAnswer(stream, abort.signal)
      }
    } catch (error) {
      if (abort.signal.aborted) {
        this.log('Error after the answer was cancelled (ignored):', error)
      } else {
        this.log('Answer failed:', error)
        // Nobody heard it (no call, no listener): it must not go unseen
        if (!this.emit('Failed', error)) this.warn('Answer failed:', error)
      }
    } finally {
      this.endRun(run)
    }
  }

  /** Aborts a run's signal, then ends it. */
  private cancelRun(run: AnswerRun | undefined) {
    if (!run) return
    if (!run.abort.signal.aborted) run.abort.abort()
    this.endRun(run)
  }

  /** Ends a run's stream; clears `answering` if it was the current one. */
  private endRun(run: AnswerRun) {
    run.stream.end()
    if (this.currentRun === run) {
      this.currentRun = undefined
      this.answering = false
    }
  }
}

// The call the agent belongs to hears its events first (see call-sink.ts).
eventsGoToCall(Agent)
