import type { ModelStreamPart } from '@openmic/core'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { mapChatStream } from './map-chat-stream.js'

async function parts(deltas: object[]): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = []
  async function* chunks() {
    for (const delta of deltas)
      yield { choices: [{ index: 0, delta }] } as unknown as ChatCompletionChunk
    yield { choices: [] } as unknown as ChatCompletionChunk // usage chunk
  }
  for await (const part of mapChatStream(chunks())) out.push(part)
  return out
}

describe('mapChatStream', () => {
  it('maps content, refusal and reasoning', async () => {
    expect(
      await parts([
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
    const result = await parts([
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
    const result = await parts([
      { tool_calls: [{ id: 'm1', function: { name: 'w', arguments: '{"a":1}' } }] },
      { tool_calls: [{ id: 'm2', function: { name: 'w', arguments: '{"a":2}' } }] },
    ])
    const calls = result.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall] : []))
    expect(calls.map((call) => [call.toolCallId, call.parameters])).toEqual([
      ['m1', '{"a":1}'],
      ['m2', '{"a":2}'],
    ])
  })
})
