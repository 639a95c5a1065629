import type { MicdropConversation } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { convertToChatMessages } from './convert-to-chat-messages.js'

const call = (id: string, parameters = '{}') =>
  ({ role: 'tool_call', toolCallId: id, toolName: 'weather', parameters }) as const
const result = (id: string, output = '"ok"') =>
  ({ role: 'tool_result', toolCallId: id, toolName: 'weather', output }) as const

describe('convertToChatMessages', () => {
  it('keeps plain messages', () => {
    expect(
      convertToChatMessages([
        { role: 'system', content: 's' },
        { role: 'user', content: 'u', metadata: { x: 1 } },
        { role: 'assistant', content: 'a' },
      ])
    ).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
    ])
  })

  it('groups a run of calls and results: one assistant message, then the results', () => {
    const conversation: MicdropConversation = [
      { role: 'user', content: 'u' },
      call('a', '{"city":"Oslo"}'),
      result('a'),
      call('b'),
      result('b', '{"t":3}'),
    ]
    expect(convertToChatMessages(conversation)).toEqual([
      { role: 'user', content: 'u' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'a',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Oslo"}' },
          },
          { id: 'b', type: 'function', function: { name: 'weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '"ok"' },
      { role: 'tool', tool_call_id: 'b', content: '{"t":3}' },
    ])
  })

  it('puts calls into the assistant text said just before them', () => {
    const messages = convertToChatMessages([
      { role: 'assistant', content: 'Let me check.' },
      call('a'),
      result('a'),
      { role: 'assistant', content: 'Done.' },
      call('b'),
      result('b'),
    ])
    expect(messages.map((m) => [m.role, 'tool_calls' in m ? m.tool_calls?.length : 0])).toEqual([
      ['assistant', 1],
      ['tool', 0],
      ['assistant', 1],
      ['tool', 0],
    ])
    expect(messages[0]).toMatchObject({ content: 'Let me check.' })
  })
})
