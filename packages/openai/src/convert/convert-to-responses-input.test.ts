import { describe, expect, it } from 'vitest'
import { convertToResponsesInput } from './convert-to-responses-input.js'

describe('convertToResponsesInput', () => {
  it('maps messages and tool items, sending JSON strings as they are', () => {
    expect(
      convertToResponsesInput([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?', metadata: { ignored: true } },
        { role: 'assistant', content: 'Checking.' },
        { role: 'tool_call', toolCallId: 'c1', toolName: 'weather', parameters: '{"city":"Oslo"}' },
        { role: 'tool_result', toolCallId: 'c1', toolName: 'weather', output: '{"sky":"grey"}' },
      ])
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"sky":"grey"}' },
    ])
  })
})
