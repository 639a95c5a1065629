import type { FakeUsage, RecordedRequest, SseDialect, StreamEncoder } from '../sse-server/types.js'

/**
 * The Chat Completions stream (`POST /v1/chat/completions`), as OpenAI and compatible servers send
 * it: data-only SSE of `chat.completion.chunk` objects, ended by `data: [DONE]`.
 */
export const chatDialect: SseDialect = {
  terminator: 'data: [DONE]\n\n',
  createEncoder: (request) => new ChatEncoder(request),
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'fake_error', code: null },
  }),
}

class ChatEncoder implements StreamEncoder {
  private readonly id = `chatcmpl-fake${Date.now().toString(36)}`
  private readonly created = Math.floor(Date.now() / 1000)
  private readonly model: string
  private readonly includeUsage: boolean
  private toolCalls = 0

  constructor(request: RecordedRequest) {
    this.model = String(request.body?.model ?? 'fake-model')
    this.includeUsage = Boolean(request.body?.stream_options?.include_usage)
  }

  start(): unknown[] {
    return [this.chunk({ role: 'assistant', content: '', refusal: null })]
  }

  text(delta: string): unknown[] {
    return [this.chunk({ content: delta })]
  }

  reasoning(delta: string): unknown[] {
    return [this.chunk({ reasoning_content: delta })]
  }

  toolCall(call: { id: string; name: string; chunks: string[] }): unknown[] {
    const index = this.toolCalls++
    const [first, ...rest] = call.chunks
    return [
      this.chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: first } },
        ],
      }),
      ...rest.map((args) => this.chunk({ tool_calls: [{ index, function: { arguments: args } }] })),
    ]
  }

  finish(usage: FakeUsage): unknown[] {
    const reason = this.toolCalls > 0 ? 'tool_calls' : 'stop'
    const events: unknown[] = [this.chunk({}, reason)]
    if (this.includeUsage) {
      events.push({
        ...this.base(),
        choices: [],
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
      })
    }
    return events
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
    return {
      ...this.base(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    }
  }

  private base() {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
    }
  }
}
