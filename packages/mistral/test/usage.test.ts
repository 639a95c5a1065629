import type { ModelCallReport } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { mistralAgent, readAll, useFakeMistral } from './helpers.js'

// What the agent reports for tracing (ModelCallEnd), through the real SDK and the fake server.

const fake = useFakeMistral()

describe('MistralAgent reports', () => {
  it('the tokens each model call used, as the API reported them, and its provider', async () => {
    fake.server
      .replyParts([{ type: 'tool-call', name: 'lookup', arguments: {} }], {
        usage: { inputTokens: 64, outputTokens: 11 },
      })
      .replyParts([{ type: 'text', delta: 'Noon.' }], {
        usage: { inputTokens: 90, outputTokens: 3 },
      })
    const agent = mistralAgent(fake.server)
    agent.addUserMessage('What time is it?')
    agent.addTool({ name: 'lookup', description: 'Looks it up', execute: () => 'noon' })
    const reports: ModelCallReport[] = []
    agent.on('ModelCallEnd', (report) => reports.push(report))
    expect(await readAll(agent.answer())).toBe('Noon.')
    expect(reports.map(({ provider, usage }) => ({ provider, usage }))).toEqual([
      { provider: 'mistral_ai', usage: { inputTokens: 64, outputTokens: 11 } },
      { provider: 'mistral_ai', usage: { inputTokens: 90, outputTokens: 3 } },
    ])
  })
})
