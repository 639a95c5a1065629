import { describe, expect, it } from 'vitest'
import { mistralRequestProblem } from './validate-request.js'

const call = (id: string) => ({ id, function: { name: 'weather', arguments: '{}' } })

describe('mistralRequestProblem', () => {
  it('accepts a valid conversation with a tool round trip', () => {
    const messages = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [call('abcDEF123'), call('abcDEF124')] },
      { role: 'tool', tool_call_id: 'abcDEF123', content: '{}' },
      { role: 'tool', tool_call_id: 'abcDEF124', content: '{}' },
    ]
    expect(mistralRequestProblem({ messages })).toBeUndefined()
  })

  it("rejects what Mistral rejects, in Mistral's words", () => {
    const cases: Array<[unknown[], string]> = [
      [
        [{ role: 'system', content: 'S' }],
        'Expected last role User or Tool (or Assistant with prefix True) for serving but got system',
      ],
      [
        [
          { role: 'user', content: 'U' },
          { role: 'assistant', tool_calls: [call('abcDEF123')] },
          { role: 'tool', tool_call_id: 'abcDEF123', content: '{}' },
          { role: 'user', content: 'U' },
        ],
        "Unexpected role 'user' after role 'tool'",
      ],
      [
        [
          { role: 'user', content: 'U' },
          { role: 'tool', tool_call_id: 'abcDEF123', content: '{}' },
        ],
        "Unexpected role 'tool' after role 'user'",
      ],
      [
        [
          { role: 'user', content: 'U' },
          { role: 'assistant', tool_calls: [call('call_123')] },
          { role: 'tool', tool_call_id: 'call_123', content: '{}' },
        ],
        'Tool call id was call_123 but must be a-z, A-Z, 0-9, with a length of 9.',
      ],
      [
        [
          { role: 'user', content: 'U' },
          { role: 'assistant', tool_calls: [call('abcDEF123'), call('abcDEF124')] },
          { role: 'tool', tool_call_id: 'abcDEF123', content: '{}' },
          { role: 'assistant', content: 'A' },
          { role: 'user', content: 'U' },
        ],
        'Not the same number of function calls and responses',
      ],
      [
        [
          { role: 'user', content: 'U' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'U' },
        ],
        'Assistant message must have either content or tool_calls, but not none.',
      ],
    ]
    for (const [messages, problem] of cases) {
      expect(mistralRequestProblem({ messages })).toBe(problem)
    }
  })
})
