import { text } from 'node:stream/consumers'
import type { MicdropConversationToolItem } from '@openmic/core'
import { describe, expect, it, vi } from 'vitest'
import { LOCAL_AGENT_GREETING, LocalAgent } from './LocalAgent.js'

const clock = () => new Date('2026-11-29T22:42:00Z')

/** Records the agent's events in order. */
function record(agent: LocalAgent) {
  const events: string[] = []
  agent.on('Message', (message) => events.push(`${message.role}: ${message.content}`))
  agent.on('ToolMessage', (item: MicdropConversationToolItem) =>
    events.push(`${item.role} ${item.toolName}${'output' in item ? ` ${item.output}` : ''}`)
  )
  agent.on('EndCall', () => events.push('EndCall'))
  agent.on('Failed', (error) => events.push(`Failed: ${String(error)}`))
  return events
}

describe('LocalAgent', () => {
  it('greets when it answers first', async () => {
    const agent = new LocalAgent()
    const events = record(agent)
    expect(await text(agent.answer())).toBe(LOCAL_AGENT_GREETING)
    expect(events).toEqual([`assistant: ${LOCAL_AGENT_GREETING}`])
  })

  it('answers "what time is it" through the get_current_time tool', async () => {
    const agent = new LocalAgent({ now: clock, timeZone: 'UTC' })
    const events = record(agent)
    agent.addUserMessage('what time is it')
    expect(await text(agent.answer())).toBe('It is 10:42 PM.')
    expect(events).toEqual([
      'user: what time is it',
      'tool_call get_current_time',
      'tool_result get_current_time {"time":"10:42 PM","timeZone":"UTC","iso":"2026-11-29T22:42:00.000Z"}',
      'assistant: It is 10:42 PM.',
    ])
  })

  it('says goodbye, then ends the call through end_call', async () => {
    const agent = new LocalAgent()
    const events = record(agent)
    agent.addUserMessage('good bye')
    expect(await text(agent.answer())).toBe('Goodbye, and have a nice day!')
    expect(events).toEqual([
      'user: good bye',
      'assistant: Goodbye, and have a nice day!',
      'tool_call end_call',
      'EndCall',
      'tool_result end_call null',
    ])
  })

  it('only says goodbye when autoEndCall is off', async () => {
    const agent = new LocalAgent({ autoEndCall: false })
    const events = record(agent)
    agent.addUserMessage('goodbye')
    expect(await text(agent.answer())).toBe('Goodbye, and have a nice day!')
    expect(events).not.toContain('EndCall')
  })

  it('answers anything else politely, without tools', async () => {
    const agent = new LocalAgent()
    const events = record(agent)
    agent.addUserMessage('please tell me a story about a dog')
    const answer = await text(agent.answer())
    expect(answer).toMatch(/^Sorry, .*tell you the time.*goodbye\.$/)
    expect(events).toEqual(['user: please tell me a story about a dog', `assistant: ${answer}`])
  })

  it('warmUp() answers a throwaway "what time is it" through the time tool, with the given options', async () => {
    const now = vi.fn(clock)
    await LocalAgent.warmUp({ now, timeZone: 'UTC' })
    expect(now).toHaveBeenCalledTimes(1)
  })

  it('ends its answer stream on cancel()', async () => {
    const agent = new LocalAgent({ now: clock })
    agent.addUserMessage('what time is it')
    const stream = agent.answer()
    agent.cancel()
    expect(await text(stream)).toBe('')
    expect(agent.conversation.some((item) => item.role === 'assistant')).toBe(false)
  })
})
