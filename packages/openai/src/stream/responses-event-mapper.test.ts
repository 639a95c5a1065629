import type { ModelStreamPart } from '@openmic/core/provider'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import { OpenaiStreamError } from '../errors/OpenaiStreamError.js'
import { mapResponsesEvent } from './responses-event-mapper.js'

function parts(events: object[]): ModelStreamPart[] {
  return events.flatMap((event) => mapResponsesEvent(event as ResponseStreamEvent) ?? [])
}

const functionCall = (args: string) => ({
  type: 'function_call',
  call_id: 'call_1',
  name: 'lookup',
  arguments: args,
})

describe('mapResponsesEvent', () => {
  it('maps text, refusal and reasoning deltas', async () => {
    expect(
      parts([
        { type: 'response.created', response: {} },
        { type: 'response.output_item.added', item: { type: 'reasoning' } },
        { type: 'response.reasoning_summary_text.delta', delta: 'hmm' },
        { type: 'response.output_text.delta', delta: 'Hi' },
        { type: 'response.output_text.delta', delta: '' },
        { type: 'response.refusal.delta', delta: 'No.' },
        { type: 'response.completed', response: {} },
      ])
    ).toEqual([
      { type: 'reasoning' },
      { type: 'reasoning', delta: 'hmm' },
      { type: 'text', delta: 'Hi' },
      { type: 'text', delta: 'No.' },
    ])
  })

  it('emits a tool call once its item is done, empty arguments as {}', async () => {
    const result = parts([
      { type: 'response.output_item.added', item: functionCall('') },
      { type: 'response.function_call_arguments.delta', delta: '{"a"' },
      { type: 'response.output_item.done', item: functionCall('') },
      { type: 'response.output_item.done', item: functionCall('{"a":1}') },
    ])
    expect(result.slice(1)).toEqual([
      {
        type: 'tool-call',
        toolCall: { role: 'tool_call', toolCallId: 'call_1', toolName: 'lookup', parameters: '{}' },
      },
      {
        type: 'tool-call',
        toolCall: {
          role: 'tool_call',
          toolCallId: 'call_1',
          toolName: 'lookup',
          parameters: '{"a":1}',
        },
      },
    ])
  })

  it('throws the code of an error event, fields at the top or nested', () => {
    expect(() => parts([{ type: 'error', code: 'server_error', message: 'oops' }])).toThrow(
      expect.objectContaining({ code: 'server_error', message: 'OpenaiAgent: oops' })
    )
    const nested = { type: 'error', error: { code: 'insufficient_quota', message: 'quota' } }
    expect(() => parts([nested])).toThrow(OpenaiStreamError)
    expect(() => parts([nested])).toThrow(expect.objectContaining({ code: 'insufficient_quota' }))
  })

  it('throws on response.failed', () => {
    const failed = {
      type: 'response.failed',
      response: { error: { code: 'server_error', message: 'x' } },
    }
    expect(() => parts([{ type: 'response.output_text.delta', delta: 'a' }, failed])).toThrow(
      expect.objectContaining({ code: 'server_error', retryable: true })
    )
  })
})
