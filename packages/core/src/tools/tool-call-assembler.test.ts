import { describe, expect, it } from 'vitest'
import { ToolCallAssembler } from './tool-call-assembler.js'

describe('ToolCallAssembler', () => {
  it('joins argument fragments per key, in the order calls started', () => {
    const assembler = new ToolCallAssembler()
    assembler.add({ key: 0, id: 'call_a', name: 'weather', arguments: '' })
    assembler.add({ key: 1, id: 'call_b', name: 'time', arguments: '{"tz":' })
    for (const piece of ['{', '"location"', ': ', '"San Francisco"', '}'])
      assembler.add({ key: 0, arguments: piece })
    assembler.add({ key: 1, arguments: '"UTC"}' })
    expect(assembler.finish()).toEqual([
      {
        role: 'tool_call',
        toolCallId: 'call_a',
        toolName: 'weather',
        parameters: '{"location": "San Francisco"}',
      },
      { role: 'tool_call', toolCallId: 'call_b', toolName: 'time', parameters: '{"tz":"UTC"}' },
    ])
    expect(assembler.size).toBe(0)
  })

  it('turns empty arguments into {} and generates missing ids', () => {
    const assembler = new ToolCallAssembler()
    assembler.add({ key: 'x', name: 'end_call' })
    const [call] = assembler.finish()
    expect(call).toMatchObject({ toolName: 'end_call', parameters: '{}' })
    expect(call!.toolCallId).toMatch(/^call_/)
  })
})
