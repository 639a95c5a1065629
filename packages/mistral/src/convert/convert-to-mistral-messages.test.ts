import type { MicdropConversation } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import {
  BRIDGE_ASSISTANT_CONTENT,
  convertToMistralMessages,
  SILENT_USER_CONTENT,
} from './convert-to-mistral-messages.js'

const call = (id: string, name = 'weather', parameters = '{"city":"Paris"}') =>
  ({ role: 'tool_call', toolCallId: id, toolName: name, parameters }) as const
const result = (id: string, name = 'weather', output = '{"temperature":21}') =>
  ({ role: 'tool_result', toolCallId: id, toolName: name, output }) as const

describe('convertToMistralMessages', () => {
  it('maps text messages one to one', () => {
    const conversation: MicdropConversation = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi', metadata: { ignored: true } },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Bye' },
    ]
    expect(convertToMistralMessages(conversation)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Bye' },
    ])
  })

  it('sends a system-only conversation as a user message, without changing the conversation', () => {
    const conversation: MicdropConversation = [{ role: 'system', content: 'Greet the user.' }]
    expect(convertToMistralMessages(conversation)).toEqual([
      { role: 'user', content: 'Greet the user.' },
    ])
    expect(conversation).toEqual([{ role: 'system', content: 'Greet the user.' }])
  })

  it("ends a conversation whose last message is the assistant's with a user message, in the request only", () => {
    const conversation: MicdropConversation = [
      { role: 'system', content: 'Greet the user.' },
      { role: 'assistant', content: 'Hello!' },
    ]
    expect(convertToMistralMessages(conversation)).toEqual([
      { role: 'system', content: 'Greet the user.' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: SILENT_USER_CONTENT },
    ])
    expect(conversation).toHaveLength(2)
  })

  it('joins parallel calls and the text before them into one assistant message, arguments encoded once', () => {
    const conversation: MicdropConversation = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: 'Let me check.' },
      call('aaaaaaaa1'),
      result('aaaaaaaa1'),
      call('bbbbbbbb2', 'weather', '{"city":"Rome"}'),
      result('bbbbbbbb2', 'weather', '{"temperature":25}'),
      { role: 'assistant', content: 'Paris 21, Rome 25.' },
    ]
    expect(convertToMistralMessages(conversation)).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [
          {
            id: 'aaaaaaaa1',
            type: 'function',
            index: 0,
            function: { name: 'weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'bbbbbbbb2',
            type: 'function',
            index: 1,
            function: { name: 'weather', arguments: '{"city":"Rome"}' },
          },
        ],
      },
      { role: 'tool', toolCallId: 'aaaaaaaa1', name: 'weather', content: '{"temperature":21}' },
      { role: 'tool', toolCallId: 'bbbbbbbb2', name: 'weather', content: '{"temperature":25}' },
      { role: 'assistant', content: 'Paris 21, Rome 25.' },
      { role: 'user', content: SILENT_USER_CONTENT },
    ])
  })

  it('puts an assistant message between a tool result and the next user message', () => {
    const conversation: MicdropConversation = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'I was going to' },
      call('ccccccccc', 'semantic_turn', '{}'),
      result('ccccccccc', 'semantic_turn', 'null'),
      { role: 'user', content: 'say hello' },
    ]
    const messages = convertToMistralMessages(conversation)
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    expect(messages[4]).toEqual({ role: 'assistant', content: BRIDGE_ASSISTANT_CONTENT })
    expect(messages[2]).toEqual({
      role: 'assistant',
      toolCalls: [
        {
          id: 'ccccccccc',
          type: 'function',
          index: 0,
          function: { name: 'semantic_turn', arguments: '{}' },
        },
      ],
    })
  })

  it('rewrites foreign ids the same way for a call and its result, and drops unpaired items', () => {
    const conversation: MicdropConversation = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Weather?' },
      call('call_2FQdm3Br7Qb35YUBSkDR7kue'),
      result('call_2FQdm3Br7Qb35YUBSkDR7kue'),
      call('orphan_call'),
      result('orphan_result'),
    ]
    const messages = convertToMistralMessages(conversation)
    expect(messages).toHaveLength(4)
    const assistant = messages[2] as { toolCalls: Array<{ id: string }> }
    const tool = messages[3] as { toolCallId: string }
    expect(assistant.toolCalls).toHaveLength(1)
    expect(assistant.toolCalls[0]!.id).toMatch(/^[a-zA-Z0-9]{9}$/)
    expect(tool.toolCallId).toBe(assistant.toolCalls[0]!.id)
  })
})
