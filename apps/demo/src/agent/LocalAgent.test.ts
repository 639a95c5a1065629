import { describe, expect, it } from 'vitest'
import { LocalAgent } from './LocalAgent.js'
import { GOODBYE, GREETING } from './replies.js'

async function answer(agent: LocalAgent): Promise<string> {
  let text = ''
  for await (const chunk of agent.answer()) text += chunk.toString()
  return text
}

const noon = () => new Date('2026-06-01T12:05:00Z')

describe('LocalAgent', () => {
  it('greets when asked for a first message', async () => {
    const agent = new LocalAgent()
    expect(await answer(agent)).toBe(GREETING)
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: GREETING })
  })

  it('answers "what time is it" through the real get_time tool', async () => {
    const agent = new LocalAgent({ now: noon, timeZone: 'UTC' })
    const toolCalls: unknown[] = []
    agent.on('ToolCall', (call) => toolCalls.push(call))
    agent.addUserMessage('What time is it?')
    expect(await answer(agent)).toBe('It is 12:05 PM.')
    expect(agent.conversation.slice(2).map((item) => item.role)).toEqual([
      'tool_call',
      'tool_result',
      'assistant',
    ])
    expect(toolCalls).toEqual([
      {
        name: 'get_time',
        parameters: {},
        output: { time: '12:05 PM', iso: '2026-06-01T12:05:00.000Z' },
      },
    ])
  })

  it('ends the call on goodbye through end_call, then says goodbye', async () => {
    const agent = new LocalAgent()
    const events: string[] = []
    agent.on('EndCall', () => events.push('EndCall'))
    agent.on('Message', (message) => events.push(`${message.role}: ${message.content}`))
    agent.addUserMessage('ok goodbye')
    expect(await answer(agent)).toBe(GOODBYE)
    expect(events).toEqual(['user: ok goodbye', 'EndCall', `assistant: ${GOODBYE}`])
  })

  it('otherwise answers politely with what it heard', async () => {
    const agent = new LocalAgent()
    agent.addUserMessage('the weather is nice')
    expect(await answer(agent)).toContain('You said: "the weather is nice"')
  })

  it('stops at once when cancelled', async () => {
    const agent = new LocalAgent()
    agent.addUserMessage('tell me a story about the sea')
    const stream = agent.answer()
    const chunks: string[] = []
    stream.on('data', (chunk) => {
      chunks.push(chunk.toString())
      agent.cancel()
    })
    await new Promise((resolve) => stream.on('end', resolve))
    expect(chunks).toHaveLength(1)
    expect(agent.conversation.filter((item) => item.role === 'assistant')).toEqual([])
  })
})
