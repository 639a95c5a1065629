import { Agent } from '@openmic/core'
import {
  ModelEventStream,
  shouldSendTools,
  type ModelCallRequest,
  type ModelStreamPart,
} from '@openmic/core/provider'
import OpenAI from 'openai'
import type { PassThrough } from 'node:stream'
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions'
import type {
  ResponseCreateParamsStreaming,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses'
import { convertToChatMessages } from './convert/convert-to-chat-messages.js'
import { convertToResponsesInput } from './convert/convert-to-responses-input.js'
import { prepareChatTools, prepareResponsesTools } from './convert/prepare-tools.js'
import { toOpenaiError } from './errors/to-openai-error.js'
import { ChatStreamMapper } from './stream/chat-stream-mapper.js'
import { responsesEventMapper } from './stream/responses-event-mapper.js'
import {
  DEFAULT_OPENAI_MODEL,
  type OpenaiAgentOptions,
  type OpenaiChatSettings,
  type OpenaiResponsesSettings,
} from './types.js'

/**
 * An agent answering with OpenAI models, streamed: the Responses API by default, or Chat
 * Completions (`api: 'chat'`) for OpenAI-compatible servers.
 *
 * Streaming, extraction, tool calls, retries, the first-token timeout and cancellation are
 * openmic's shared machinery; this class only builds each request and maps the stream's events.
 * `cancel()` aborts the HTTP request at once. HTTP errors are the SDK's (with `status` and
 * `headers`). openmic alone retries: the SDK's own retries are off, also on a client you pass, so
 * a failing request is sent exactly `maxRetry + 1` times (see `maxRetry`).
 *
 * @example
 * const agent = new OpenaiAgent({ apiKey: process.env.OPENAI_API_KEY, systemPrompt: 'Be brief.' })
 * agent.addUserMessage('Hello!')
 * agent.answer().pipe(process.stdout)
 */
export class OpenaiAgent extends Agent<OpenaiAgentOptions> {
  /** `openai`, as OpenTelemetry's GenAI conventions name the provider (for tracing). */
  override get providerName(): string {
    return 'openai'
  }

  /** The SDK client the agent uses. */
  readonly openai: OpenAI
  private readonly model: string

  constructor(options: OpenaiAgentOptions) {
    super(options)
    this.model = options.model ?? DEFAULT_OPENAI_MODEL
    this.openai =
      options.openai ??
      new OpenAI({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        // Core's step loop is the only one retrying (see `maxRetry`).
        maxRetries: 0,
      })
  }

  protected generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    return this.streamModelAnswer(
      stream,
      signal,
      (request) => this.callModel(request),
      this.options
    )
  }

  /** Aborts the answer's signal, and with it the HTTP request. */
  cancel(): void {
    this.abortAnswer()
  }

  /** One model call: the request is sent at once, its events mapped as they arrive. */
  private callModel({ signal }: ModelCallRequest): AsyncIterable<ModelStreamPart> {
    if (this.options.api === 'chat') {
      return new ModelEventStream(this.openChat(signal), new ChatStreamMapper(), toOpenaiError)
    }
    return new ModelEventStream(this.openResponses(signal), responsesEventMapper, toOpenaiError)
  }

  private openChat(signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>> {
    const body: ChatCompletionCreateParamsStreaming = {
      // The tokens used, in the last chunk (for tracing); settings may say otherwise
      stream_options: { include_usage: true },
      ...(this.options.settings as OpenaiChatSettings),
      model: this.model,
      messages: convertToChatMessages(this.conversation),
      ...(this.withTools() ? { tools: prepareChatTools(this.tools) } : {}),
      stream: true,
    }
    return this.openai.chat.completions.create(body, this.requestOptions(signal))
  }

  private openResponses(signal: AbortSignal): Promise<AsyncIterable<ResponseStreamEvent>> {
    const body: ResponseCreateParamsStreaming = {
      ...(this.options.settings as OpenaiResponsesSettings),
      model: this.model,
      input: convertToResponsesInput(this.conversation),
      ...(this.withTools() ? { tools: prepareResponsesTools(this.tools) } : {}),
      stream: true,
    }
    return this.openai.responses.create(body, this.requestOptions(signal))
  }

  private withTools(): boolean {
    return shouldSendTools(this.conversation, this.tools)
  }

  /** Per request, so that a client passed in `openai` (which retries by default) never retries. */
  private requestOptions(signal: AbortSignal) {
    return { signal, maxRetries: 0 }
  }
}
