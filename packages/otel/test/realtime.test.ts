import { describe, expect, it } from 'vitest'
import { MockRealtime, RealtimeAgent } from '@openmic/core'
import { instrumentedCall } from './call.js'
import { createTelemetry, within } from './telemetry.js'

// A speech-to-speech model as the call's voice: its responses are the model calls of the turn.

describe('a realtime call', () => {
  it('one chat span per response of an answer, with the tokens the model reported', async () => {
    const telemetry = createTelemetry()
    const realtime = () => {
      const agent = new RealtimeAgent({
        model: new MockRealtime({
          transcripts: ['What time is it?'],
          answers: [
            {
              toolCalls: [{ name: 'lookup' }],
              usage: { inputTokens: 180, outputTokens: 14 },
            },
            { text: 'It is noon.', usage: { inputTokens: 230, outputTokens: 61 } },
          ],
        }),
        systemPrompt: 'Be brief.',
      })
      agent.addTool({ name: 'lookup', description: 'Looks the time up', execute: () => 'noon' })
      return agent
    }
    const { result } = await instrumentedCall(
      { steps: [{ say: 'What time is it' }, { waitFor: 'quiet' }] },
      { ...telemetry, models: { agent: 'gpt-realtime' } },
      { realtime }
    )
    expect(result.conversation.agent.map((item) => [item.role, item.content])).toEqual([
      ['user', 'What time is it?'],
      ['tool_call', undefined],
      ['tool_result', undefined],
      ['assistant', 'It is noon.'],
    ])
    expect(telemetry.span('openmic.turn').attributes['openmic.turn.outcome']).toBe('answered')
    const invoke = telemetry.span('invoke_agent')
    const steps = telemetry.children(invoke)
    expect(steps.map((span) => span.name)).toEqual([
      'chat gpt-realtime',
      'execute_tool lookup',
      'chat gpt-realtime',
    ])
    const chats = steps.filter((span) => span.name.startsWith('chat'))
    expect(chats.map((span) => span.attributes)).toMatchObject([
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock',
        'openmic.model.step': 0,
        'openmic.model.outcome': 'completed',
        'gen_ai.usage.input_tokens': 180,
        'gen_ai.usage.output_tokens': 14,
      },
      {
        'openmic.model.step': 1,
        'openmic.model.outcome': 'completed',
        'gen_ai.usage.input_tokens': 230,
        'gen_ai.usage.output_tokens': 61,
      },
    ])
    for (const span of steps) expect(within(span, invoke)).toBe(true)
    const tokens = await telemetry.points('gen_ai.client.token.usage')
    const sums = Object.fromEntries(
      tokens.map((point) => [
        point.attributes['gen_ai.token.type'],
        (point.value as { sum: number }).sum,
      ])
    )
    expect(sums).toEqual({ input: 410, output: 75 })
  })
})
