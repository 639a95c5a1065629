import { describe, expect, it } from 'vitest'
import type { MicdropConversation } from '../conversation/types.js'
import type { Tool } from './Tool.js'
import { shouldSendTools } from './should-send-tools.js'

const tool: Tool = { name: 'lookup', description: 'Looks something up' }
const systemOnly: MicdropConversation = [{ role: 'system', content: 'Be brief.' }]

describe('shouldSendTools', () => {
  it('offers no tools for the first answer, when the conversation holds only the system prompt', () => {
    expect(shouldSendTools(systemOnly, [tool])).toBe(false)
  })

  it('offers the tools once anyone else spoke', () => {
    expect(shouldSendTools([...systemOnly, { role: 'user', content: 'hi' }], [tool])).toBe(true)
    expect(shouldSendTools([...systemOnly, { role: 'assistant', content: 'Hello!' }], [tool])).toBe(
      true
    )
  })

  it('offers nothing when there are no tools', () => {
    expect(shouldSendTools([...systemOnly, { role: 'user', content: 'hi' }], [])).toBe(false)
  })
})
