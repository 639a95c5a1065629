import type { ModelCallReport } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { makeAgent, readAll, useFakeOpenAI } from './helpers.js'

// What the agent reports for tracing (ModelCallEnd), through the real SDK and the fake server.

const server = useFakeOpenAI()

describe.each(['responses', 'chat'] as const)('OpenaiAgent reports (api: %s)', (api) => {
  it('the tokens each model call used, as the API reported them, and its provider', async () => {
    const { fake } = server
    fake
      .replyParts([{ type: 'tool-call', name: 'lookup', arguments: {} }], {
        usage: { inputTokens: 57, outputTokens: 9 },
      })
      .replyParts([{ type: 'text', delta: 'Noon.' }], {
        usage: { inputTokens: 81, outputTokens: 2 },
      })
    const agent = makeAgent(fake, { api })
    agent.addTool({ name: 'lookup', description: 'Looks it up', execute: () => 'noon' })
    const reports: ModelCallReport[] = []
    agent.on('ModelCallEnd', (report) => reports.push(report))
    expect(await readAll(agent.answer())).toBe('Noon.')
    expect(reports.map(({ provider, usage, outcome }) => ({ provider, usage, outcome }))).toEqual([
      { provider: 'openai', usage: { inputTokens: 57, outputTokens: 9 }, outcome: 'completed' },
      { provider: 'openai', usage: { inputTokens: 81, outputTokens: 2 }, outcome: 'completed' },
    ])
    // Chat Completions reports usage only when asked to.
    if (api === 'chat') {
      expect(fake.requests[0]!.body.stream_options).toEqual({ include_usage: true })
    }
  })
})
