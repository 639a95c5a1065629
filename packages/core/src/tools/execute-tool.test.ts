import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { recordEvents } from '../../test/helpers.js'
import { ToolAgent } from '../../test/tool-agent.js'

const weather = {
  name: 'get_weather',
  description: 'Get current weather for a location',
  parameters: z.object({ location: z.string(), unit: z.enum(['c', 'f']).default('c') }),
  execute: async ({ location, unit }: { location: string; unit: 'c' | 'f' }) => ({
    location,
    unit,
    temperature: 22,
  }),
}

describe('executeTool', () => {
  it('records tool_call then tool_result with the output encoded once', async () => {
    const agent = new ToolAgent()
    agent.addTool(weather)
    const result = await agent.run({
      toolCallId: 'call_1',
      toolName: 'get_weather',
      parameters: '{"location":"Paris"}',
    })
    expect(result).toEqual({
      output: { location: 'Paris', unit: 'c', temperature: 22 },
      skipAnswer: undefined,
    })
    expect(agent.conversation.slice(1)).toEqual([
      {
        role: 'tool_call',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        parameters: '{"location":"Paris"}',
      },
      {
        role: 'tool_result',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        output: '{"location":"Paris","unit":"c","temperature":22}',
      },
    ])
    const output = agent.conversation[2] as { output: string }
    expect(JSON.parse(output.output)).toEqual(result.output)
  })

  it('passes the running agent and validated input to execute; accepts inputSchema', async () => {
    const agent = new ToolAgent()
    const execute = vi.fn(() => 'done')
    agent.addTool({
      name: 'legacy',
      description: 'd',
      inputSchema: z.object({ n: z.number() }),
      execute,
    })
    await agent.run({ toolCallId: 'c', toolName: 'legacy', parameters: '{"n":3}' })
    expect(execute).toHaveBeenCalledWith({ n: 3 }, agent)
    expect(agent.conversation.at(-1)).toMatchObject({ output: '"done"' })
  })

  it('emits ToolCall with parsed parameters and output when emitOutput is set', async () => {
    const agent = new ToolAgent()
    agent.addTool({ ...weather, emitOutput: true })
    const events = recordEvents(agent)
    await agent.run({
      toolCallId: 'c',
      toolName: 'get_weather',
      parameters: '{"location":"Oslo","unit":"f"}',
    })
    expect(events.filter(([name]) => name === 'ToolCall')).toEqual([
      [
        'ToolCall',
        {
          name: 'get_weather',
          parameters: { location: 'Oslo', unit: 'f' },
          output: { location: 'Oslo', unit: 'f', temperature: 22 },
        },
      ],
    ])
  })

  it('does not emit ToolCall without emitOutput', async () => {
    const agent = new ToolAgent()
    agent.addTool(weather)
    const events = recordEvents(agent)
    await agent.run({ toolCallId: 'c', toolName: 'get_weather', parameters: '{"location":"Oslo"}' })
    expect(events.map(([name]) => name)).toEqual(['ToolMessage', 'ToolMessage'])
  })

  it.each([
    ['an unknown tool', 'nope', '{}', 'Unknown tool "nope"'],
    [
      'invalid JSON',
      'get_weather',
      '{"location":',
      'Invalid JSON arguments for tool "get_weather"',
    ],
    [
      'arguments the schema rejects',
      'get_weather',
      '{"location":42}',
      'Invalid arguments for tool "get_weather"',
    ],
  ])(
    'records an error result for %s and never throws',
    async (_case, toolName, parameters, message) => {
      const agent = new ToolAgent()
      agent.addTool({ ...weather, emitOutput: true })
      const events = recordEvents(agent)
      const result = await agent.run({ toolCallId: 'c1', toolName, parameters })
      expect((result.output as { error: string }).error).toContain(message)
      expect(result.skipAnswer).toBe(false)
      expect(agent.conversation.slice(1)).toEqual([
        { role: 'tool_call', toolCallId: 'c1', toolName, parameters },
        { role: 'tool_result', toolCallId: 'c1', toolName, output: JSON.stringify(result.output) },
      ])
      expect(events.some(([name]) => name === 'ToolCall')).toBe(false)
    }
  )

  it('records the message of an execute that throws', async () => {
    const agent = new ToolAgent()
    agent.addTool({
      name: 'explode',
      description: 'd',
      skipAnswer: true,
      execute: () => {
        throw new Error('database offline')
      },
    })
    const result = await agent.run({ toolCallId: 'c', toolName: 'explode', parameters: '{}' })
    expect(result).toEqual({
      output: { error: 'Tool "explode" failed: database offline' },
      skipAnswer: false,
    })
    expect(agent.conversation.at(-1)).toMatchObject({
      output: '{"error":"Tool \\"explode\\" failed: database offline"}',
    })
  })

  it('runs a tool without schema or execute with no arguments and a null output', async () => {
    const agent = new ToolAgent()
    agent.addTool({ name: 'ping', description: 'd' })
    const result = await agent.run({ toolCallId: 'c', toolName: 'ping', parameters: '{}' })
    expect(result.output).toBeNull()
    expect(agent.conversation.at(-1)).toMatchObject({ output: 'null' })
  })

  it('returns skipAnswer from the tool', async () => {
    const agent = new ToolAgent()
    agent.addTool({
      name: 'hold',
      description: 'd',
      skipAnswer: true,
      execute: () => ({ ok: true }),
    })
    expect(await agent.run({ toolCallId: 'c', toolName: 'hold', parameters: '{}' })).toEqual({
      output: { ok: true },
      skipAnswer: true,
    })
  })
})
