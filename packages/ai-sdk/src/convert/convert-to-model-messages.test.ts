import { describe, expect, it } from 'vitest'
import { convertToModelMessages } from './convert-to-model-messages.js'

describe('convertToModelMessages', () => {
  it('keeps system, user and assistant messages as they are', () => {
    expect(
      convertToModelMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!', metadata: { extracted: 'x' } },
      ])
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ])
  })

  it('puts a run of tool calls after the assistant text said before them, then their results', () => {
    expect(
      convertToModelMessages([
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: 'Checking.' },
        { role: 'tool_call', toolCallId: 'a', toolName: 'weather', parameters: '{"city":"Paris"}' },
        { role: 'tool_result', toolCallId: 'a', toolName: 'weather', output: '{"sky":"sun"}' },
        { role: 'tool_call', toolCallId: 'b', toolName: 'weather', parameters: '{"city":"Rome"}' },
        { role: 'tool_result', toolCallId: 'b', toolName: 'weather', output: 'not json' },
        { role: 'assistant', content: 'Sunny in both.' },
      ])
    ).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'weather', input: { city: 'Paris' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'weather',
            output: { type: 'json', value: { sky: 'sun' } },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'weather',
            output: { type: 'text', value: 'not json' },
          },
        ],
      },
      { role: 'assistant', content: 'Sunny in both.' },
    ])
  })

  it('gives tool calls without text their own assistant message, and leaves the conversation unchanged', () => {
    const conversation = [
      { role: 'user' as const, content: 'Bye' },
      { role: 'tool_call' as const, toolCallId: 'e', toolName: 'end_call', parameters: '{' },
      { role: 'tool_result' as const, toolCallId: 'e', toolName: 'end_call', output: '{}' },
    ]
    const copy = structuredClone(conversation)
    expect(convertToModelMessages(conversation).slice(1)).toEqual([
      {
        role: 'assistant',
        // Arguments that are not a JSON object are sent as `{}`: providers require an object.
        content: [{ type: 'tool-call', toolCallId: 'e', toolName: 'end_call', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'e',
            toolName: 'end_call',
            output: { type: 'json', value: {} },
          },
        ],
      },
    ])
    expect(conversation).toEqual(copy)
  })

  it("sends back what the provider attached to a call (e.g. Gemini's thought signature)", () => {
    const metadata = new Map([['a', { google: { thoughtSignature: 'sig-a' } }]])
    const messages = convertToModelMessages(
      [
        { role: 'user', content: 'Weather?' },
        { role: 'tool_call', toolCallId: 'a', toolName: 'weather', parameters: '{}' },
        { role: 'tool_result', toolCallId: 'a', toolName: 'weather', output: '"sun"' },
        { role: 'tool_call', toolCallId: 'b', toolName: 'weather', parameters: '{}' },
        { role: 'tool_result', toolCallId: 'b', toolName: 'weather', output: '"rain"' },
      ],
      metadata
    )
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'a',
          toolName: 'weather',
          input: {},
          providerOptions: { google: { thoughtSignature: 'sig-a' } },
        },
        { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: {} },
      ],
    })
  })
})
