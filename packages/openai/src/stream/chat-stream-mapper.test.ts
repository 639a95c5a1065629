import type { ModelStreamPart } from '@openmic/core/provider'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { ChatStreamMapper } from './chat-stream-mapper.js'

function parts(deltas: object[]): ModelStreamPart[] {
  const mapper = new ChatStreamMapper()
  const chunks = [...deltas.map((delta) => ({ choices: [{ index: 0, delta }] })), { choices: [] }]
  const out: ModelStreamPart[] = []
  const emit = (part: ModelStreamPart) => out.push(part)
  for (const chunk of chunks) mapper.map(chunk as unknown as ChatCompletionChunk, emit)
  mapper.finish(emit)
  return out
}

describe('ChatStreamMapper', () => {
  it('maps content, refusal and reasoning', async () => {
    expect(
      parts([
        { role: 'assistant', content: '' },
        { reasoning_content: 'think' },
        { reasoning: 'more' },
        { content: 'Hi' },
        { refusal: 'No.' },
      ])
    ).toEqual([
      { type: 'reasoning', delta: 'think' },
      { type: 'reasoning', delta: 'more' },
      { type: 'text', delta: 'Hi' },
      { type: 'text', delta: 'No.' },
    ])
  })

  it('assembles tool calls by index and emits them at the end', async () => {
    const result = parts([
      {
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'w', arguments: '' } },
        ],
      },
      {
        tool_calls: [
          { index: 1, id: 'b', type: 'function', function: { name: 'v', arguments: '{"x"' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"y":2}' } }] },
      { tool_calls: [{ index: 1, function: { arguments: ':1}' } }] },
    ])
    expect(result.filter((part) => part.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCall: { role: 'tool_call', toolCallId: 'a', toolName: 'w', parameters: '{"y":2}' },
      },
      {
        type: 'tool-call',
        toolCall: { role: 'tool_call', toolCallId: 'b', toolName: 'v', parameters: '{"x":1}' },
      },
    ])
    expect(result.filter((part) => part.type === 'reasoning')).toHaveLength(2) // one per new call
  })

  it('accepts whole calls without index (Mistral-style servers)', async () => {
    const result = parts([
      { tool_calls: [{ id: 'm1', function: { name: 'w', arguments: '{"a":1}' } }] },
      { tool_calls: [{ id: 'm2', function: { name: 'w', arguments: '{"a":2}' } }] },
    ])
    const calls = result.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall] : []))
    expect(calls.map((call) => [call.toolCallId, call.parameters])).toEqual([
      ['m1', '{"a":1}'],
      ['m2', '{"a":2}'],
    ])
  })

  it('ties id-less, index-less continuation pieces to the call before them', () => {
    const calls = parts([
      { tool_calls: [{ id: 'x', function: { name: 'w', arguments: '{"a"' } }] },
      { tool_calls: [{ function: { arguments: ':1}' } }] },
    ]).flatMap((part) => (part.type === 'tool-call' ? [part.toolCall] : []))
    expect(calls).toEqual([
      { role: 'tool_call', toolCallId: 'x', toolName: 'w', parameters: '{"a":1}' },
    ])
  })

  it('speaks the text parts of array content and treats thinking parts as reasoning', () => {
    expect(
      parts([
        { content: [{ type: 'thinking', thinking: [{ type: 'text', text: '2+2' }] }] },
        { content: [{ type: 'text', text: '4' }] },
      ])
    ).toEqual([{ type: 'reasoning' }, { type: 'text', delta: '4' }])
  })
})
