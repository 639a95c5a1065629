import { describe, expect, it } from 'vitest'
import { cancelOnFirstChunk, readAll, recordEvents } from '../../test/helpers.js'
import { MockAgent } from './MockAgent.js'

describe('MockAgent', () => {
  it('echoes the last user message by default, word by word', async () => {
    const agent = new MockAgent({ wordDelayMs: 1 })
    agent.addUserMessage('Hello there')
    const chunks: string[] = []
    const stream = agent.answer()
    stream.on('data', (chunk) => chunks.push(chunk.toString()))
    await new Promise((resolve) => stream.on('end', resolve))
    expect(chunks.join('')).toBe('You said: "Hello there"')
    expect(chunks.length).toBeGreaterThan(2)
  })

  it('plays scripted answers in order, repeating the last one', async () => {
    const agent = new MockAgent({ answers: ['One.', 'Two.'] })
    expect(await readAll(agent.answer())).toBe('One.')
    expect(await readAll(agent.answer())).toBe('Two.')
    expect(await readAll(agent.answer())).toBe('Two.')
  })

  it('scripts tool calls that run through the real tools', async () => {
    const agent = new MockAgent({
      autoEndCall: true,
      answers: [{ toolCalls: [{ name: 'end_call' }] }, 'Bye!'],
    })
    const events = recordEvents(agent)
    expect(await readAll(agent.answer())).toBe('Bye!')
    expect(events.map(([name]) => name)).toEqual([
      'ToolMessage',
      'EndCall',
      'ToolMessage',
      'Message',
    ])
  })

  it('answers from a function of the conversation', async () => {
    const agent = new MockAgent({ answers: (conversation) => `${conversation.length} items` })
    expect(await readAll(agent.answer())).toBe('1 items')
  })

  it('stops streaming at once when cancelled during a slow answer', async () => {
    const agent = new MockAgent({ answers: ['a b c d e f'], wordDelayMs: 20 })
    expect(await cancelOnFirstChunk(agent)).toEqual(['a '])
    expect(agent.conversation).toHaveLength(1)
  })
})
