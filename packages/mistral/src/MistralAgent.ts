import { Mistral } from '@mistralai/mistralai'
import { Agent } from '@openmic/core'
import {
  ModelEventStream,
  shouldSendTools,
  type ModelCallRequest,
  type ModelStreamPart,
} from '@openmic/core/provider'
import type { PassThrough } from 'node:stream'
import { convertToMistralMessages } from './convert/convert-to-mistral-messages.js'
import { prepareMistralTools } from './convert/prepare-mistral-tools.js'
import type { MistralChatRequest } from './convert/types.js'
import { toMistralError } from './errors/to-mistral-error.js'
import { ChatStreamTap } from './stream/chat-stream-tap.js'
import { MistralStreamMapper } from './stream/mistral-stream-mapper.js'
import { readChatChunks } from './stream/read-chat-chunks.js'
import { DEFAULT_MISTRAL_MODEL, type MistralAgentOptions } from './types.js'

/**
 * An Agent answering with Mistral's streamed chat completions, through the official
 * `@mistralai/mistralai` SDK.
 *
 * Streaming, tool calls, extraction, retries, the first-token timeout and cancellation are core's
 * shared step loop; this class only builds the request and maps Mistral's chunks. `cancel()` aborts
 * the HTTP request. HTTP errors are the SDK's `MistralError` (with `statusCode`, `headers`, and
 * `status`). openmic alone retries (the SDK's retries are off), so a failing request is sent at
 * most `maxRetry + 1` times.
 *
 * @example
 * const agent = new MistralAgent({
 *   apiKey: process.env.MISTRAL_API_KEY,
 *   systemPrompt: 'You are a helpful voice assistant. Answer briefly.',
 * })
 */
export class MistralAgent extends Agent<MistralAgentOptions> {
  /** `mistral_ai`, as OpenTelemetry's GenAI conventions name the provider (for tracing). */
  override get providerName(): string {
    return 'mistral_ai'
  }

  /** The Mistral client requests go through. */
  readonly mistral: Mistral
  private readonly tap: ChatStreamTap

  constructor(options: MistralAgentOptions) {
    super(options)
    this.tap = new ChatStreamTap(options.httpClient)
    this.mistral = new Mistral({
      apiKey: options.apiKey ?? process.env.MISTRAL_API_KEY,
      serverURL: options.serverURL,
      httpClient: this.tap.httpClient,
      // Core's step loop is the only one retrying (see `maxRetry`).
      retryConfig: { strategy: 'none' },
    })
  }

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    const { maxSteps, maxRetry, firstTokenTimeoutMs } = this.options
    return this.streamModelAnswer(stream, signal, (request) => this.callModel(request), {
      maxSteps,
      maxRetry,
      firstTokenTimeoutMs,
    })
  }

  /** Aborts the answer's signal, and with it the HTTP request. */
  cancel(): void {
    this.abortAnswer()
  }

  /** The request for the conversation as it is now (no tools while it holds only the system prompt). */
  protected buildRequest(): MistralChatRequest {
    const withTools = shouldSendTools(this.conversation, this.tools)
    return {
      ...this.options.settings,
      model: this.options.model ?? DEFAULT_MISTRAL_MODEL,
      messages: convertToMistralMessages(this.conversation),
      ...(withTools ? { tools: prepareMistralTools(this.tools) } : {}),
      stream: true,
    }
  }

  /**
   * One model call: the SDK sends the request at once, and the agent reads the chunks of its
   * stream as they arrive (see `ChatStreamTap` for why not through the SDK's stream).
   */
  private callModel({ signal }: ModelCallRequest): AsyncIterable<ModelStreamPart> {
    const request = this.buildRequest()
    const body = this.tap.open((headers) =>
      this.mistral.chat.stream(request, { signal, headers, retries: { strategy: 'none' } })
    )
    return new ModelEventStream(
      body.then(readChatChunks),
      new MistralStreamMapper(),
      toMistralError
    )
  }
}
