import { describe, expect, it } from 'vitest'
import { recordEvents } from '../../test/helpers.js'
import { ToolAgent } from '../../test/tool-agent.js'
import {
  DEFAULT_END_CALL_DESCRIPTION,
  DEFAULT_IGNORE_USER_NOISE_DESCRIPTION,
  DEFAULT_SEMANTIC_TURN_DESCRIPTION,
} from './default-tools.js'

describe('default tools', () => {
  it('exist only when enabled', () => {
    expect(new ToolAgent().tools).toEqual([])
    const agent = new ToolAgent({
      autoEndCall: true,
      autoSemanticTurn: true,
      autoIgnoreUserNoise: true,
    })
    expect(agent.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['end_call', DEFAULT_END_CALL_DESCRIPTION],
      ['semantic_turn', DEFAULT_SEMANTIC_TURN_DESCRIPTION],
      ['ignore_user_noise', DEFAULT_IGNORE_USER_NOISE_DESCRIPTION],
    ])
    expect(agent.defaultTools().map((tool) => tool.name)).toEqual([
      'end_call',
      'semantic_turn',
      'ignore_user_noise',
    ])
  })

  it('take a string option as their description', () => {
    const agent = new ToolAgent({
      autoEndCall: 'Hang up when the user says bye',
      autoSemanticTurn: 'Wait',
    })
    expect(agent.getTool('end_call')?.description).toBe('Hang up when the user says bye')
    expect(agent.getTool('semantic_turn')?.description).toBe('Wait')
  })

  it('end_call emits EndCall and lets the model say goodbye', async () => {
    const agent = new ToolAgent({ autoEndCall: true })
    const events = recordEvents(agent)
    const result = await agent.run({ toolCallId: 'c', toolName: 'end_call', parameters: '{}' })
    expect(result.skipAnswer).toBeUndefined()
    expect(events.map(([name]) => name)).toEqual(['ToolMessage', 'EndCall', 'ToolMessage'])
  })

  it('semantic_turn emits SkipAnswer and skips the answer', async () => {
    const agent = new ToolAgent({ autoSemanticTurn: true })
    agent.addUserMessage('I would like to')
    const events = recordEvents(agent)
    const result = await agent.run({ toolCallId: 'c', toolName: 'semantic_turn', parameters: '{}' })
    expect(result.skipAnswer).toBe(true)
    expect(events.map(([name]) => name)).toEqual(['ToolMessage', 'SkipAnswer', 'ToolMessage'])
    expect(agent.conversation[1]).toEqual({ role: 'user', content: 'I would like to' })
  })

  it('ignore_user_noise removes the last user message, emits CancelLastUserMessage and skips', async () => {
    const agent = new ToolAgent({ autoIgnoreUserNoise: true })
    agent.addUserMessage('What time is it?')
    agent.addAssistantMessage('It is noon.')
    agent.addUserMessage('Hmm')
    const events = recordEvents(agent)
    const result = await agent.run({
      toolCallId: 'c',
      toolName: 'ignore_user_noise',
      parameters: '{}',
    })
    expect(result.skipAnswer).toBe(true)
    expect(events.map(([name]) => name)).toEqual([
      'ToolMessage',
      'CancelLastUserMessage',
      'SkipAnswer',
      'ToolMessage',
    ])
    const texts = agent.conversation
      .filter((item) => item.role === 'user')
      .map((item) => item.content)
    expect(texts).toEqual(['What time is it?'])
  })

  it('act on the agent that runs them, so they can be shared', async () => {
    const owner = new ToolAgent({ autoEndCall: true })
    const other = new ToolAgent()
    other.tools = owner.tools
    const ownerEvents = recordEvents(owner)
    const otherEvents = recordEvents(other)
    await other.run({ toolCallId: 'c', toolName: 'end_call', parameters: '{}' })
    expect(otherEvents.map(([name]) => name)).toContain('EndCall')
    expect(ownerEvents).toEqual([])
  })
})
