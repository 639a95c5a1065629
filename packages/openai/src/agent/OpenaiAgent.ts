import { Agent, type ModelCallRequest, type ModelStreamPart } from '@openmic/core'
import OpenAI from 'openai'
import type { PassThrough } from 'node:stream'
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions'
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses'
import { convertToChatMessages } from '../chat/convert-to-chat-messages.js'
import { mapChatStream } from '../chat/map-chat-stream.js'
import { toOpenaiError } from '../errors/to-openai-error.js'
import { convertToResponsesInput } from '../responses/convert-to-responses-input.js'
import { mapResponsesStream } from '../responses/map-responses-stream.js'
import { prepareChatTools, prepareResponsesTools, shouldSendTools } from '../tools/prepare-tools.js'
import { DEFAULT_OPENAI_MODEL, type OpenaiAgentOptions } from './types.js'

/**
 * An agent answering with OpenAI models, streamed: the Responses API by default, or Chat
 * Completions (`api: 'chat'`) for OpenAI-compatible servers.
 *
 * Streaming, extraction, tool calls, retries, the first-token timeout and cancellation are
 * openmic's shared machinery; this class only builds each request and maps the stream's events.
 * `cancel()` aborts the HTTP request at once. HTTP errors are the SDK's (with `status`), retried
 * by the SDK itself (`maxRetries` = `maxRetry`) for 408/409/429/5xx and connection errors.
 *
 * @example
 * const agent = new OpenaiAgent({ apiKey: process.env.OPENAI_API_KEY, systemPrompt: 'Be brief.' })
 * agent.addUserMessage('Hello!')
 * agent.answer().pipe(process.stdout)
 */
export class OpenaiAgent extends Agent<OpenaiAgentOptions> {
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
        maxRetries: options.maxRetry,
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

  /** The answer's signal (aborted by the base class) aborts the HTTP request. */
  cancel(): void {
    this.log('Cancel')
  }

  private async *callModel({ signal }: ModelCallRequest): AsyncGenerator<ModelStreamPart> {
    const options = this.options
    const requestOptions = { signal, maxRetries: options.maxRetry }
    const withTools = shouldSendTools(this.conversation, this.tools)
    try {
      if (options.api === 'chat') {
        const body: ChatCompletionCreateParamsStreaming = {
          ...options.settings,
          model: this.model,
          messages: convertToChatMessages(this.conversation),
          ...(withTools ? { tools: prepareChatTools(this.tools) } : {}),
          stream: true,
        }
        yield* mapChatStream(await this.openai.chat.completions.create(body, requestOptions))
      } else {
        const body: ResponseCreateParamsStreaming = {
          ...options.settings,
          model: this.model,
          input: convertToResponsesInput(this.conversation),
          ...(withTools ? { tools: prepareResponsesTools(this.tools) } : {}),
          stream: true,
        }
        yield* mapResponsesStream(await this.openai.responses.create(body, requestOptions))
      }
    } catch (error) {
      throw toOpenaiError(error)
    }
  }
}
