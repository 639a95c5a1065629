import type { ModelCallReport } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { aiSdkProviderName } from '../src/provider-name.js'
import { fakeOpenaiAgent, readAll, useFakeOpenAI } from './helpers.js'

// What the agent reports for tracing (ModelCallEnd): `@ai-sdk/openai` against the fake server.

const server = useFakeOpenAI()

describe.each(['responses', 'chat'] as const)('AiSdkAgent reports (api: %s)', (api) => {
  it('the tokens each model call used, as the API reported them, and its provider', async () => {
    const { fake } = server
    fake
      .replyParts([{ type: 'tool-call', name: 'lookup', arguments: {} }], {
        usage: { inputTokens: 43, outputTokens: 8 },
      })
      .replyParts([{ type: 'text', delta: 'Noon.' }], {
        usage: { inputTokens: 70, outputTokens: 2 },
      })
    const agent = fakeOpenaiAgent(fake, api)
    agent.addUserMessage('What time is it?')
    agent.addTool({ name: 'lookup', description: 'Looks it up', execute: () => 'noon' })
    const reports: ModelCallReport[] = []
    agent.on('ModelCallEnd', (report) => reports.push(report))
    expect(await readAll(agent.answer())).toBe('Noon.')
    expect(reports.map(({ provider, usage }) => ({ provider, usage }))).toEqual([
      { provider: 'openai', usage: { inputTokens: 43, outputTokens: 8 } },
      { provider: 'openai', usage: { inputTokens: 70, outputTokens: 2 } },
    ])
  })
})

describe('aiSdkProviderName', () => {
  it('names the provider as the GenAI conventions do, the SDK id otherwise', () => {
    const model = (provider: string) => ({ provider }) as Parameters<typeof aiSdkProviderName>[0]
    expect(aiSdkProviderName(model('mistral.chat'))).toBe('mistral_ai')
    expect(aiSdkProviderName(model('anthropic.messages'))).toBe('anthropic')
    expect(aiSdkProviderName(model('ollama.chat'))).toBe('ollama')
    expect(aiSdkProviderName('anthropic/claude-haiku-4-5')).toBe('anthropic')
  })
})
