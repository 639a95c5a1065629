import { Agent } from '@openmic/core'
import {
  ModelEventStream,
  shouldSendTools,
  type ModelCallRequest,
  type ModelStreamPart,
} from '@openmic/core/provider'
import { streamText, type ProviderMetadata } from 'ai'
import type { PassThrough } from 'node:stream'
import { convertToModelMessages } from './convert/convert-to-model-messages.js'
import { prepareAiSdkTools } from './convert/prepare-ai-sdk-tools.js'
import { aiSdkProviderName } from './provider-name.js'
import { toAiSdkError } from './errors/to-ai-sdk-error.js'
import { AiSdkStreamMapper } from './stream/ai-sdk-stream-mapper.js'
import type { AiSdkAgentOptions } from './types.js'

/** Errors reach the step loop through the stream's `error` parts; the SDK must not also log them. */
const ignoreError = () => {}

/**
 * An agent answering with any AI SDK language model (`ai` 6): Anthropic, Google, Groq, Mistral,
 * OpenAI, Ollama and other OpenAI-compatible servers, ...
 *
 * Streaming, extraction, tool calls, retries, the first-token timeout and cancellation are core's
 * shared step loop, as for every openmic agent; this class only calls `streamText` once per model
 * call (the tools go to the model without `execute`, so the AI SDK runs no tool and no loop of its
 * own) and maps its stream. `cancel()` aborts the request. openmic alone retries (`streamText`'s
 * `maxRetries` is 0), so a failing request is sent at most `maxRetry + 1` times.
 *
 * @example
 * import { anthropic } from '@ai-sdk/anthropic'
 *
 * const agent = new AiSdkAgent({
 *   model: anthropic('claude-haiku-4-5'),
 *   systemPrompt: 'You are a helpful voice assistant. Answer briefly.',
 * })
 */
export class AiSdkAgent extends Agent<AiSdkAgentOptions> {
  /** The provider of the model (`openai`, `anthropic`, `mistral_ai`...), for tracing. */
  override get providerName(): string {
    return aiSdkProviderName(this.options.model)
  }

  /**
   * What providers attached to the tool calls of this conversation, by call id: sent back with each
   * call, as some APIs require (e.g. Gemini's thought signatures).
   */
  private readonly toolCallMetadata = new Map<string, ProviderMetadata>()

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    return this.streamModelAnswer(
      stream,
      signal,
      (request) => this.callModel(request),
      this.options
    )
  }

  /** Aborts the answer's signal, and with it the request. */
  cancel(): void {
    this.abortAnswer()
  }

  /** One model call: `streamText` sends the request at once, its parts mapped as they arrive. */
  private callModel({ signal }: ModelCallRequest): AsyncIterable<ModelStreamPart> {
    const withTools = shouldSendTools(this.conversation, this.tools)
    const result = streamText({
      ...this.options.settings,
      model: this.options.model,
      messages: convertToModelMessages(this.conversation, this.toolCallMetadata),
      // openmic's conversation holds the system prompt as its first message.
      allowSystemInMessages: true,
      ...(withTools ? { tools: prepareAiSdkTools(this.tools) } : {}),
      maxRetries: 0,
      abortSignal: signal,
      onError: ignoreError,
    })
    return new ModelEventStream(
      result.fullStream,
      new AiSdkStreamMapper(this.toolCallMetadata),
      toAiSdkError
    )
  }
}
