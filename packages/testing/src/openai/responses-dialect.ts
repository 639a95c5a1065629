import type { FakeUsage, RecordedRequest, SseDialect, StreamEncoder } from '../sse-server/types.js'

/**
 * The OpenAI Responses API stream (`POST /v1/responses`): named SSE events (`event: <type>`), no
 * `[DONE]`; the stream ends with `response.completed`.
 */
export const responsesDialect: SseDialect = {
  eventName: (event) =>
    event && typeof event === 'object' && 'type' in event ? String(event.type) : undefined,
  createEncoder: (request) => new ResponsesEncoder(request),
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'fake_error', code: null },
  }),
}

type Item = Record<string, unknown> & { id: string; type: string }

class ResponsesEncoder implements StreamEncoder {
  private sequence = 0
  private readonly id = `resp_fake_${Date.now().toString(36)}`
  private readonly model: string
  private readonly output: Item[] = []
  private open?: { item: Item; text: string; kind: 'message' | 'reasoning' }

  constructor(request: RecordedRequest) {
    this.model = String(request.body?.model ?? 'fake-model')
  }

  start(): unknown[] {
    return [
      this.event('response.created', { response: this.response('in_progress') }),
      this.event('response.in_progress', { response: this.response('in_progress') }),
    ]
  }

  text(delta: string): unknown[] {
    const events = this.openItem('message')
    const { item } = this.open!
    this.open!.text += delta
    const ids = { item_id: item.id, output_index: this.output.length, content_index: 0 }
    events.push(this.event('response.output_text.delta', { ...ids, delta, logprobs: [] }))
    return events
  }

  reasoning(delta: string): unknown[] {
    const events = this.openItem('reasoning')
    const { item } = this.open!
    this.open!.text += delta
    const ids = { item_id: item.id, output_index: this.output.length, summary_index: 0 }
    events.push(this.event('response.reasoning_summary_text.delta', { ...ids, delta }))
    return events
  }

  toolCall(call: { id: string; name: string; chunks: string[] }): unknown[] {
    const events = this.closeItem()
    const output_index = this.output.length
    const item: Item = {
      id: `fc_fake_${output_index}`,
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: call.id,
      name: call.name,
    }
    const args = call.chunks.join('')
    const done = { ...item, status: 'completed', arguments: args }
    events.push(this.event('response.output_item.added', { output_index, item }))
    for (const delta of call.chunks) {
      events.push(
        this.event('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index,
          delta,
        })
      )
    }
    events.push(
      this.event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index,
        arguments: args,
      }),
      this.event('response.output_item.done', { output_index, item: done })
    )
    this.output.push(done)
    return events
  }

  finish(usage: FakeUsage): unknown[] {
    const events = this.closeItem()
    events.push(this.event('response.completed', { response: this.response('completed', usage) }))
    return events
  }

  private openItem(kind: 'message' | 'reasoning'): unknown[] {
    if (this.open?.kind === kind) return []
    const events = this.closeItem()
    const output_index = this.output.length
    const item: Item =
      kind === 'message'
        ? {
            id: `msg_fake_${output_index}`,
            type: 'message',
            status: 'in_progress',
            content: [],
            role: 'assistant',
          }
        : { id: `rs_fake_${output_index}`, type: 'reasoning', summary: [] }
    this.open = { item, text: '', kind }
    events.push(this.event('response.output_item.added', { output_index, item }))
    if (kind === 'message') {
      const part = { type: 'output_text', annotations: [], logprobs: [], text: '' }
      events.push(
        this.event('response.content_part.added', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part,
        })
      )
    } else {
      const part = { type: 'summary_text', text: '' }
      events.push(
        this.event('response.reasoning_summary_part.added', {
          item_id: item.id,
          output_index,
          summary_index: 0,
          part,
        })
      )
    }
    return events
  }

  private closeItem(): unknown[] {
    const open = this.open
    if (!open) return []
    this.open = undefined
    const output_index = this.output.length
    const item_id = open.item.id
    const events: unknown[] = []
    let done: Item
    if (open.kind === 'message') {
      const part = { type: 'output_text', annotations: [], logprobs: [], text: open.text }
      events.push(
        this.event('response.output_text.done', {
          item_id,
          output_index,
          content_index: 0,
          text: open.text,
          logprobs: [],
        }),
        this.event('response.content_part.done', { item_id, output_index, content_index: 0, part })
      )
      done = { ...open.item, status: 'completed', content: [part] }
    } else {
      const part = { type: 'summary_text', text: open.text }
      events.push(
        this.event('response.reasoning_summary_text.done', {
          item_id,
          output_index,
          summary_index: 0,
          text: open.text,
        }),
        this.event('response.reasoning_summary_part.done', {
          item_id,
          output_index,
          summary_index: 0,
          part,
        })
      )
      done = { ...open.item, summary: [part] }
    }
    events.push(this.event('response.output_item.done', { output_index, item: done }))
    this.output.push(done)
    return events
  }

  private response(status: string, usage?: FakeUsage) {
    const completed = status === 'completed'
    return {
      id: this.id,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status,
      error: null,
      incomplete_details: null,
      model: this.model,
      output: completed ? this.output : [],
      usage:
        completed && usage
          ? {
              input_tokens: usage.inputTokens,
              output_tokens: usage.outputTokens,
              total_tokens: usage.inputTokens + usage.outputTokens,
            }
          : null,
    }
  }

  private event(type: string, fields: Record<string, unknown>) {
    return { type, sequence_number: this.sequence++, ...fields }
  }
}
