import { Mistral } from '@mistralai/mistralai'
import { Agent } from '@openmic/core'
import { type ModelCallRequest, type ModelStreamPart } from '@openmic/core/provider'
import type { PassThrough } from 'node:stream'
import { convertToMistralMessages } from './convert/convert-to-mistral-messages.js'
import { prepareMistralTools } from './convert/prepare-mistral-tools.js'
import type { MistralChatRequest } from './convert/types.js'
import { toAgentError } from './errors/http-error.js'
import { mapMistralStream } from './stream/map-mistral-stream.js'
import { DEFAULT_MISTRAL_MODEL, type MistralAgentOptions } from './types.js'

/**
 * An Agent answering with Mistral's streamed chat completions, through the official
 * `@mistralai/mistralai` SDK.
 *
 * Streaming, tool calls, extraction, retries, the first-token timeout and cancellation are core's
 * shared step loop; this class only builds the request and maps Mistral's chunks. `cancel()` aborts
 * the HTTP request. HTTP errors keep their status (`status`, and the SDK's `statusCode`); 408, 409,
 * 429 and 5xx are retried `maxRetry` times before the first token (honouring `retry-after` up to
 * 5 s), other 4xx fail at once.
 *
 * @example
 * const agent = new MistralAgent({
 *   apiKey: process.env.MISTRAL_API_KEY,
 *   systemPrompt: 'You are a helpful voice assistant. Answer briefly.',
 * })
 */
export class MistralAgent extends Agent<MistralAgentOptions> {
  /** The Mistral client requests go through. */
  readonly mistral: Mistral

  constructor(options: MistralAgentOptions) {
    super(options)
    this.mistral =
      options.mistral ??
      new Mistral({
        apiKey: options.apiKey ?? process.env.MISTRAL_API_KEY,
        serverURL: options.serverURL,
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

  /** The answer's signal aborts the HTTP request; the base class ends the stream. */
  cancel(): void {
    if (this.answering) this.log('Cancel')
  }

  /** The request for the conversation as it is now. No tools while it holds only the system prompt. */
  protected buildRequest(): MistralChatRequest {
    const systemOnly = this.conversation.every((item) => item.role === 'system')
    const tools = systemOnly ? undefined : prepareMistralTools(this.tools)
    return {
      ...this.options.settings,
      model: this.options.model ?? DEFAULT_MISTRAL_MODEL,
      messages: convertToMistralMessages(this.conversation),
      ...(tools ? { tools } : {}),
      stream: true,
    }
  }

  /**
   * One model call: the request is sent at once, its chunks mapped as they arrive. The SDK's
   * promise is handed over as it is (no async wrapper): each promise layer delays the first chunk.
   * Retries are core's (counted, abortable, voice-short, waiting what `retry-after` asks): the
   * SDK's are time-based.
   */
  private callModel({ signal }: ModelCallRequest): AsyncIterable<ModelStreamPart> {
    const request = this.mistral.chat.stream(this.buildRequest(), {
      signal,
      retries: { strategy: 'none' },
    })
    return mapMistralStream(request, toAgentError)
  }
}
