import type { FakeUsage, RecordedRequest, SseDialect, StreamEncoder } from '../sse-server/types.js'
import { mistralRequestProblem } from './validate-request.js'

/**
 * Mistral's chat stream (`POST /v1/chat/completions` on api.mistral.ai): data-only SSE of
 * `chat.completion.chunk` objects ended by `data: [DONE]`. Unlike OpenAI's: a tool call comes
 * whole in one chunk with no `index` and no `type`, reasoning is `content` as an array of
 * `thinking` parts, and usage rides on the chunk with the finish reason.
 */
export const mistralDialect: SseDialect = {
  terminator: 'data: [DONE]\n\n',
  createEncoder: (request) => new MistralEncoder(request),
  rejectRequest: (request) => mistralRejection(request),
  errorBody: mistralErrorBody,
}

/** Mistral's error body: `{ object: 'error', message, type, param, code }`. */
export function mistralErrorBody(status: number, message: string): unknown {
  return {
    object: 'error',
    message,
    type: status === 429 ? 'rate_limited' : 'invalid_request_error',
    param: null,
    code: null,
  }
}

/** Mistral's own 400 body for a request it rejects. */
export function mistralRejection(request: RecordedRequest) {
  const problem = mistralRequestProblem(request.body)
  if (!problem) return undefined
  return {
    status: 400,
    body: {
      object: 'error',
      message: problem,
      type: 'invalid_request_message_order',
      param: null,
      code: '3230',
    },
  }
}

class MistralEncoder implements StreamEncoder {
  private readonly id = `fake${Date.now().toString(16)}${Math.random().toString(16).slice(2, 10)}`
  private readonly created = Math.floor(Date.now() / 1000)
  private readonly model: string
  private toolCalls = 0

  constructor(request: RecordedRequest) {
    this.model = String(request.body?.model ?? 'mistral-small-latest')
  }

  start(): unknown[] {
    return [this.chunk({ role: 'assistant', content: '' })]
  }

  text(delta: string): unknown[] {
    return [this.chunk({ content: delta })]
  }

  reasoning(delta: string): unknown[] {
    return [
      this.chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: delta }] }] }),
    ]
  }

  /**
   * One chunk holding the whole call, as Mistral sends it. Cut in pieces, the first piece carries
   * the id and name, the next ones an empty name (the SDK requires one) and the same `index`.
   */
  toolCall(call: { id: string; name: string; chunks: string[] }): unknown[] {
    const index = this.toolCalls++
    const [first, ...rest] = call.chunks
    if (rest.length === 0) {
      return [
        this.chunk({
          content: null,
          tool_calls: [{ id: call.id, function: { name: call.name, arguments: first } }],
        }),
      ]
    }
    return [
      this.chunk({
        tool_calls: [{ id: call.id, index, function: { name: call.name, arguments: first } }],
      }),
      ...rest.map((args) =>
        this.chunk({ tool_calls: [{ index, function: { name: '', arguments: args } }] })
      ),
    ]
  }

  finish(usage: FakeUsage): unknown[] {
    return [
      {
        ...this.chunk({ content: '' }, this.toolCalls > 0 ? 'tool_calls' : 'stop'),
        usage: {
          prompt_tokens: usage.inputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
          completion_tokens: usage.outputTokens,
        },
      },
    ]
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    }
  }
}
